package lockstep.nes.desktop.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NetplayStatusTest {

    @Test
    void theLineShowsPlayerPingDelayAndRollbacks() {
        assertEquals("netplay P1  ping 48 ms  delay 2  rollback 3 (12 so far)", NetplayStatus.line(true, 47.6, 2, 3, 12));
        assertEquals("netplay P2  ping - ms".replace(" ms", "") + "  delay 4  rollback 0 (0 so far)",
                NetplayStatus.line(false, -1, 4, 0, 0));
    }

    @Test
    void theWaitingLineNamesThePortOrTheHost() {
        assertEquals("netplay: waiting for a joiner on UDP port 40000",
                NetplayStatus.waiting(NetplayLaunch.host(0, "auto", 8), 40000));
        assertEquals("netplay: joining example.org:7845",
                NetplayStatus.waiting(NetplayLaunch.join("example.org:7845"), 51234));
    }
}
