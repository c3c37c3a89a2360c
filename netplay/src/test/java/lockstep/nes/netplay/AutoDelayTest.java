package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;

/** The host chooses the input delay from the round trips it measures at the handshake. */
class AutoDelayTest {

    private static final double NTSC = 60.0988;

    @Test
    void halfTheRoundTripInFramesRoundedUpWithinOneToWindowLessOne() {
        assertEquals(1, NetplayPeer.autoDelay(-1, NTSC, 8));
        assertEquals(1, NetplayPeer.autoDelay(2_000_000L, NTSC, 8));
        assertEquals(1, NetplayPeer.autoDelay(33_000_000L, NTSC, 8));
        assertEquals(2, NetplayPeer.autoDelay(34_000_000L, NTSC, 8));
        assertEquals(2, NetplayPeer.autoDelay(50_000_000L, NTSC, 8));
        assertEquals(5, NetplayPeer.autoDelay(150_000_000L, NTSC, 8));
        assertEquals(7, NetplayPeer.autoDelay(1_000_000_000L, NTSC, 8));
        assertEquals(1, NetplayPeer.autoDelay(1_000_000_000L, NTSC, 1));
        assertEquals(3, NetplayPeer.autoDelay(100_000_000L, 50.007, 8));
    }

    @Test
    void aDelayedLinkGetsALargerDelayAndBothSidesPlayTheHostsChoice() throws Exception {
        int clean = session(new Conditioner.Setting("clean", 0, 0, 0, 0));
        int far = session(new Conditioner.Setting("60ms each way", 60, 0, 0, 0));
        assertEquals(1, clean);
        // 120 ms or more of round trip: half of it is at least 3.6 frames at 60 frames a second.
        assertTrue(far >= 4 && far <= 7, "delay " + far + " for a 120 ms round trip");
    }

    private static int session(Conditioner.Setting setting) throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        NetplayPeer.Options ho = Sessions.options(60, Sessions.player(1, false), List.of());
        ho.delay = NetplayPeer.AUTO_DELAY;
        NetplayPeer.Options jo = Sessions.options(60, Sessions.player(2, false), List.of());
        jo.delay = 9; // a joiner's own setting is not the session's: the host's choice holds
        Sessions.Pair p = Sessions.run(cart, setting, ho, jo, 3);
        assertEquals(p.host().delay(), p.joiner().delay());
        assertTrue(p.host().desyncs().isEmpty());
        String truth = Sessions.replay(cart, p.host().hostInputs(), p.host().joinerInputs(), 60);
        assertEquals(truth, p.host().finalStateHash());
        assertEquals(truth, p.joiner().finalStateHash());
        return p.host().delay();
    }
}
