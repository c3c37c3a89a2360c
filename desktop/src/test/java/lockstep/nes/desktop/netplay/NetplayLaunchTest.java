package lockstep.nes.desktop.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.netplay.NetplayPeer;
import org.junit.jupiter.api.Test;

class NetplayLaunchTest {

    @Test
    void hostTakesPortDelayAndWindow() {
        NetplayLaunch h = NetplayLaunch.host(7845, "3", 8);
        assertTrue(h.host());
        assertEquals(7845, h.port());
        assertEquals(3, h.delay());
        assertEquals(8, h.window());
        assertEquals(NetplayPeer.AUTO_DELAY, NetplayLaunch.host(0, "auto", 8).delay());
        assertEquals(NetplayPeer.AUTO_DELAY, NetplayLaunch.host(0, null, 8).delay());
        assertEquals(0, NetplayLaunch.host(0, "0", 1).delay());
    }

    @Test
    void badHostValuesNameTheOption() {
        assertEquals("--port 70000 is out of range (0-65535)",
                assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.host(70000, "2", 8)).getMessage());
        assertEquals("--window 0 is out of range (1-30)",
                assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.host(1, "2", 0)).getMessage());
        assertEquals("--delay 31 is out of range (0-30)",
                assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.host(1, "31", 8)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.host(1, "soon", 8))
                .getMessage().startsWith("--delay 'soon': expected 'auto'"));
    }

    @Test
    void theRunFlagsGiveAHostAJoinerOrNothing() {
        assertEquals(null, NetplayLaunch.fromFlags(false, null, null, null, null));
        NetplayLaunch h = NetplayLaunch.fromFlags(true, null, null, null, null);
        assertEquals(new NetplayLaunch(true, 7845, null, NetplayPeer.AUTO_DELAY, 8), h);
        assertEquals(new NetplayLaunch(true, 9000, null, 4, 12), NetplayLaunch.fromFlags(true, null, 9000, "4", 12));
        assertEquals("h", NetplayLaunch.fromFlags(false, "h:1", null, null, null).hostName());
        assertEquals("--netplay-host and --netplay-join: give one (a window hosts or joins)",
                assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.fromFlags(true, "h:1", null, null, null)).getMessage());
        assertEquals("--delay is the host's: give it with --netplay-host (a joiner plays with the host's)",
                assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.fromFlags(false, "h:1", null, "3", null)).getMessage());
        assertEquals("--port is the host's: give it with --netplay-host",
                assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.fromFlags(false, null, 1, null, null)).getMessage());
    }

    @Test
    void joinTakesHostAndPort() {
        NetplayLaunch j = NetplayLaunch.join("192.168.1.20:7845");
        assertFalse(j.host());
        assertEquals("192.168.1.20", j.hostName());
        assertEquals(7845, j.port());
        assertEquals("::1", NetplayLaunch.join("[::1]:9000").hostName());
        assertEquals(9000, NetplayLaunch.join("[::1]:9000").port());
    }

    @Test
    void badJoinAddressesSayWhatIsExpected() {
        for (String bad : new String[] {"localhost", ":7845", "host:", ""}) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.join(bad))
                    .getMessage().contains("expected HOST:PORT"), bad);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.join("h:port"))
                .getMessage().endsWith("the port is not a number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NetplayLaunch.join("h:0"))
                .getMessage().endsWith("out of range (1-65535)"));
    }
}
