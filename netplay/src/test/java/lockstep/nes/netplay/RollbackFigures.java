package lockstep.nes.netplay;

import java.util.List;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;

/**
 * The figures of docs/design/netplay.md: two peers at the console's 60 frames a second over a
 * network of 50 ms and 150 ms round trip (2 ms jitter, 2% loss), each on the built-in demo and
 * on the two-pad test program, with the default delay and window. Run by hand:
 * {@code java -cp app/target/lockstep.jar:netplay/target/test-classes lockstep.nes.netplay.RollbackFigures [FRAMES]}.
 */
public final class RollbackFigures {
    private RollbackFigures() {
    }

    public static void main(String[] args) throws Exception {
        int frames = args.length > 0 ? Integer.parseInt(args[0]) : 1800;
        for (int oneWay : new int[] {25, 75}) {
            for (Cartridge cart : List.of(DemoRom.cartridge(), TwoPadRom.cartridge())) {
                NetplayPeer.Options ho = Sessions.options(frames, Sessions.player(21, false), List.of());
                NetplayPeer.Options jo = Sessions.options(frames, Sessions.player(22, false), List.of());
                ho.fps = 60;
                jo.fps = 60;
                long t0 = System.nanoTime();
                Sessions.Pair p = Sessions.run(cart, new Conditioner.Setting(oneWay + "ms", oneWay - 1, 2, 0.02, 0),
                        ho, jo, 99);
                double secs = (System.nanoTime() - t0) / 1e9;
                for (NetplayResult r : List.of(p.host(), p.joiner())) {
                    System.out.printf("%-18s RTT %3.0f ms %-5s %d frames in %.1f s: %d rollbacks (%.1f per 100 frames), "
                                    + "deepest %d, %.2f frames each, %.3f ms each (%.3f ms per frame re-run)%n",
                            cart.name(), r.rttMillis(), r.role(), r.frames(), secs, r.rollbacks(),
                            100.0 * r.rollbacks() / r.frames(), r.deepestRollback(),
                            r.rollbacks() == 0 ? 0 : (double) r.framesResimulated() / r.rollbacks(),
                            r.rollbacks() == 0 ? 0 : r.rollbackNanos() / 1e6 / r.rollbacks(),
                            r.framesResimulated() == 0 ? 0 : r.rollbackNanos() / 1e6 / r.framesResimulated());
                }
            }
        }
    }
}
