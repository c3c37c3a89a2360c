package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.verifier.DivergenceReport;
import lockstep.nes.verifier.FaultSpec;
import org.junit.jupiter.api.Test;

/**
 * A bit of the joiner's RAM flipped at one cycle (verify's {@code --inject}): both peers see the
 * desync at the frame of that cycle, within window + delay frames, locate it to that cycle and
 * that byte with both values, and play on from the host's state to the state a replay of the
 * merged input log (without the flip) reaches.
 */
class PlantedDesyncTest {
    static final int FRAMES = 900;

    @Test
    void caughtAtItsCycleAndFieldOnBothSidesAndPlayResumesIdentical() throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        // A cycle inside frame 400 (the frame count moves at the pre-render line's start).
        long cycle = cycleInFrame(cart, 400, 1234);
        FaultSpec fault = FaultSpec.parse("ram-bitflip@" + cycle + ":B:$0014:3");
        NetplayPeer.Options ho = Sessions.options(FRAMES, Sessions.player(3, false), List.of());
        NetplayPeer.Options jo = Sessions.options(FRAMES, Sessions.player(4, false), List.of(fault));
        Sessions.Pair p = Sessions.run(cart, new Conditioner.Setting("clean", 0, 0, 0, 0), ho, jo, 7);
        int frame = (int) frameOf(cart, p.host(), cycle);
        for (NetplayResult r : List.of(p.host(), p.joiner())) {
            assertEquals(1, r.desyncs().size(), r.role() + " desyncs");
            DesyncReport d = r.desyncs().get(0);
            System.out.println(r.role() + ": " + d.toLine());
            assertEquals(frame, d.frame(), r.role() + ": the frame of the flip");
            assertTrue(d.detectedAtFrame() - d.frame() <= ho.window + ho.delay,
                    r.role() + ": seen at frame " + d.detectedAtFrame() + ", within window + delay of " + d.frame());
            assertTrue(d.agreedSnapshotsEqual(), "both peers' last agreed states are the same bytes");
            DivergenceReport loc = d.localized();
            assertNotNull(loc, "located");
            assertEquals(cycle, loc.cycle(), r.role() + ": the cycle of the flip");
            assertEquals(1, loc.fields().size(), loc.fields().toString());
            DivergenceReport.FieldDifference f = loc.fields().get(0);
            assertEquals("console.ram[0x14]", f.field());
            assertEquals(Integer.parseInt(f.a(), 16) ^ 8, Integer.parseInt(f.b(), 16),
                    "the joiner's byte is the host's with bit 3 flipped");
        }
        assertEquals(p.host().finalStateHash(), p.joiner().finalStateHash(), "both resume identical");
        String truth = Sessions.replay(cart, p.host().hostInputs(), p.host().joinerInputs(), FRAMES);
        assertEquals(truth, p.host().finalStateHash(), "the host's state is the state without the flip");
    }

    /** The cycle {@code offset} cycles into frame {@code frame} of a run with no buttons. */
    static long cycleInFrame(Cartridge cart, int frame, int offset) throws Exception {
        Console c = Console.create(cart);
        for (int f = 0; f < frame; f++) {
            c.runFrame();
        }
        return c.cycles() + offset;
    }

    /** The frame (index in the input log) during which {@code cycle} ran, replaying the merged log. */
    static long frameOf(Cartridge cart, NetplayResult r, long cycle) throws Exception {
        Console c = Console.create(cart);
        for (int f = 0; ; f++) {
            c.setButtons(0, r.hostInputs()[f] & 0xFF);
            c.setButtons(1, r.joinerInputs()[f] & 0xFF);
            if ((r.hostInputs()[f] & InputLog.RESET) != 0) {
                c.reset();
            }
            c.runFrame();
            if (c.cycles() >= cycle) {
                return f;
            }
        }
    }
}
