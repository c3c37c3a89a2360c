package lockstep.nes.desktop.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import org.junit.jupiter.api.Test;

/** The window's netplay driver, pumped as the window's loop pumps it: a session played to its end, and one refused. */
class NetplayDriverTest {
    private static final int FRAMES = 60;

    @Test
    void twoDriversPlayASessionToItsEndAndSaySo() throws Exception {
        Cartridge cart = Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        List<String> posted = new ArrayList<>();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        NetplayDriver host = new NetplayDriver(err, posted::add);
        NetplayDriver join = new NetplayDriver(err, posted::add);
        assertFalse(host.active());
        assertTrue(host.start(cart, NetplayLaunch.host(0, "auto", 8), "test", FRAMES));
        assertTrue(host.active());
        int port = Integer.parseInt(host.lines().get(0).replaceAll(".* ", ""));
        assertTrue(join.start(cart, NetplayLaunch.join("127.0.0.1:" + port), "test", FRAMES));
        int hostFrames = 0;
        int joinFrames = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!(host.ended() && join.ended())) {
            assertTrue(System.nanoTime() < deadline, "the session did not end");
            hostFrames += host.pump(0x80, 48_000);
            joinFrames += join.pump(0x01, 48_000);
            Thread.sleep(1);
        }
        assertEquals(FRAMES, hostFrames);
        assertEquals(FRAMES, joinFrames);
        assertTrue(host.console() != null && join.console() != null);
        assertEquals(List.of("netplay: the session ended", "netplay: the session ended"), posted);
        assertFalse(host.desynced());
        assertFalse(host.failed());
        assertNull(host.takeFailure());
        host.close();
        join.close();
        assertFalse(host.active());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("run: netplay: waiting for a joiner on UDP port " + port));
    }

    @Test
    void aRefusedJoinEndsTheSessionWithItsLineShownOnce() throws Exception {
        Cartridge cart = Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        try (NetplayGame other = NetplayGame.start(cart, NetplayLaunch.host(0, "2", 8), "other-build", 10, null)) {
            NetplayDriver join = new NetplayDriver(err, m -> { });
            assertTrue(join.start(cart, NetplayLaunch.join("127.0.0.1:" + other.port()), "test", 10));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (join.active() && System.nanoTime() < deadline) {
                assertEquals(0, join.pump(0, 48_000));
                Thread.sleep(5);
            }
            assertFalse(join.active(), "the refusal ends the session");
            assertTrue(join.failed(), "the app then exits with 4");
            String why = join.takeFailure();
            assertTrue(why != null && why.contains("refused"), why);
            assertNull(join.takeFailure(), "shown once");
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("error: " + why));
        }
    }
}
