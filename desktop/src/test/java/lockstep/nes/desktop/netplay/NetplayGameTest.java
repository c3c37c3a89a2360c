package lockstep.nes.desktop.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.netplay.NetplayException;
import lockstep.nes.netplay.NetplayResult;
import org.junit.jupiter.api.Test;

/**
 * Two games, a host and a joiner over loopback, pumped from one thread as two windows' loops pump
 * theirs: each pass's buttons are that player's, and both end in the state a fresh engine fed
 * both players' inputs reaches.
 */
class NetplayGameTest {

    private static final int FRAMES = 240;

    @Test
    void twoPumpedGamesPlayTheSameFrames() throws Exception {
        Cartridge cart = Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        try (NetplayGame host = NetplayGame.start(cart, NetplayLaunch.host(0, "auto", 8), "test", FRAMES, null)) {
            assertEquals("netplay: waiting for a joiner on UDP port " + host.port(), host.lines().get(0));
            assertEquals(0, host.pump(0));
            assertFalse(host.connected());
            try (NetplayGame join = NetplayGame.start(cart, NetplayLaunch.join("127.0.0.1:" + host.port()), "test", FRAMES, null)) {
                int hostFrames = 0;
                int joinFrames = 0;
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!(host.ended() && join.ended())) {
                    assertTrue(System.nanoTime() < deadline, "the pumped session did not end");
                    // Player 1 holds Right for 20 frames in every 40, player 2 A for 8 in every 16.
                    hostFrames += host.pump((hostFrames / 20) % 2 == 0 ? 0x80 : 0);
                    joinFrames += join.pump((joinFrames / 8) % 2 == 0 ? 0x01 : 0);
                    Thread.sleep(1);
                }
                assertEquals(FRAMES, hostFrames, "each frame is run forward once");
                assertEquals(FRAMES, joinFrames, "each frame is run forward once");
                assertTrue(host.lines().get(0).startsWith("netplay P1  ping "), host.lines().get(0));
                assertTrue(join.lines().get(0).startsWith("netplay P2  ping "), join.lines().get(0));
                assertTrue(host.lines().get(0).contains("  delay 1  "), host.lines().get(0));
                assertFalse(host.desynced());
                NetplayResult h = host.result();
                NetplayResult j = join.result();
                assertEquals(FRAMES, h.frames());
                assertEquals(h.finalStateHash(), j.finalStateHash());
                assertEquals(replay(cart, h.hostInputs(), h.joinerInputs()), h.finalStateHash());
                assertEquals(0x80, h.hostInputs()[1] & 0x80, "player 1's pass buttons act after the delay");
                assertEquals(0x01, h.joinerInputs()[1] & 0x01, "player 2's pass buttons act after the delay");
                assertEquals(0, h.hostInputs()[0], "frame 0 is inside the delay: no buttons");
            }
        }
    }

    @Test
    void aRefusedJoinFailsFromThePumpWithItsLine() throws Exception {
        Cartridge cart = Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        try (NetplayGame other = NetplayGame.start(cart, NetplayLaunch.host(0, "2", 8), "other-build", 10, null);
             NetplayGame join = NetplayGame.start(cart, NetplayLaunch.join("127.0.0.1:" + other.port()), "test", 10, null)) {
            long deadline = System.nanoTime() + 20_000_000_000L;
            NetplayException e = null;
            while (e == null && System.nanoTime() < deadline) {
                try {
                    join.pump(0);
                    Thread.sleep(5);
                } catch (NetplayException x) {
                    e = x;
                }
            }
            assertTrue(e != null && e.getMessage().contains("refused"), String.valueOf(e));
        }
    }

    private static String replay(Cartridge cart, int[] p1, int[] p2) throws Exception {
        Console c = Console.create(cart);
        for (int f = 0; f < FRAMES; f++) {
            c.setButtons(0, p1[f] & 0xFF);
            c.setButtons(1, p2[f] & 0xFF);
            c.runFrame();
        }
        return new Snapshots(c).stateHash();
    }
}
