package lockstep.nes.netplay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.verifier.DivergenceReport;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.InputSource;
import lockstep.nes.verifier.Lockstep;
import lockstep.nes.verifier.SessionMetrics;

/**
 * Locates a desync as {@code verify} locates a divergence: the verifier's {@link Lockstep} runs
 * two engines, A as the host's and B as the joiner's (each with the faults planted into that
 * peer), from the last agreed state through the disputed frames, with both sides' inputs, and
 * reports the first cycle at which their states differ and every differing field. Both peers
 * run the same re-run from the same bytes and inputs, so both reach the same report.
 */
final class DesyncLocator {
    private DesyncLocator() {
    }

    /**
     * @param agreed  the snapshot of the start of frame {@code from} (the end of the last agreed frame)
     * @param frames  frames to re-run from {@code from}
     */
    static DivergenceReport locate(Cartridge cart, byte[] agreed, int from, int frames, int[] host, int[] joiner,
                                   List<FaultSpec> hostFaults, List<FaultSpec> joinerFaults) throws InterruptedException {
        Lockstep.Options o = new Lockstep.Options();
        o.session = "netplay";
        o.romName = cart.name();
        o.frames = frames;
        o.rollback = Lockstep.Rollback.OFF;
        o.start = agreed;
        List<FaultSpec> faults = new ArrayList<>(hostFaults);
        faults.addAll(joinerFaults);
        o.faults = faults;
        o.input = new InputSource() {
            @Override
            public void apply(int frame, Console c) {
                int f = from + frame;
                int h = f < host.length ? host[f] : 0;
                int j = f < joiner.length ? joiner[f] : 0;
                if (((h | j) & InputLog.POWER) != 0) {
                    c.power();
                } else if (((h | j) & InputLog.RESET) != 0) {
                    c.reset();
                }
                c.setButtons(0, h & InputLog.BUTTONS);
                c.setButtons(1, j & InputLog.BUTTONS);
            }
        };
        try {
            Lockstep l = new Lockstep(cart, o, fence -> new SessionMetrics(new SimpleMeterRegistry(), "netplay", fence));
            Lockstep.Result r = l.run();
            return r.divergences().isEmpty() ? null : r.divergences().get(0);
        } catch (RomFormatException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
