package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class KillSwitchTest {

    @Test
    void armedSwitchLetsWorkRun() throws InterruptedException {
        KillSwitch ks = new KillSwitch();
        assertFalse(ks.fired());
        assertNull(ks.reason());
        ks.throwIfFired();
        assertFalse(ks.await(Duration.ofMillis(10)));
    }

    @Test
    void firstReasonWinsAndListenersHearOnce() throws InterruptedException {
        KillSwitch ks = new KillSwitch();
        List<String> heard = new ArrayList<>();
        ks.onFire(heard::add);
        assertTrue(ks.fire("renewal failed"));
        assertFalse(ks.fire("second"));
        assertTrue(ks.fired());
        assertEquals("renewal failed", ks.reason());
        assertEquals(List.of("renewal failed"), heard);
        assertTrue(ks.await(Duration.ZERO));
        KilledException e = assertThrows(KilledException.class, ks::throwIfFired);
        assertTrue(e.getMessage().contains("renewal failed"), e.getMessage());
    }

    @Test
    void listenerAddedAfterFiringHearsAtOnce() {
        KillSwitch ks = new KillSwitch();
        ks.fire("x");
        List<String> heard = new ArrayList<>();
        ks.onFire(heard::add);
        assertEquals(List.of("x"), heard);
    }

    @Test
    void aThrowingListenerDoesNotSilenceTheOthers() {
        KillSwitch ks = new KillSwitch();
        List<String> heard = new ArrayList<>();
        ks.onFire(r -> {
            throw new IllegalStateException("boom");
        });
        ks.onFire(heard::add);
        ks.fire("y");
        assertEquals(List.of("y"), heard);
    }

    @Test
    void concurrentFiresPickExactlyOneWinner() throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            KillSwitch ks = new KillSwitch();
            int[] wins = new int[1];
            Thread[] ts = new Thread[4];
            for (int i = 0; i < ts.length; i++) {
                String r = "t" + i;
                ts[i] = new Thread(() -> {
                    if (ks.fire(r)) {
                        synchronized (wins) {
                            wins[0]++;
                        }
                    }
                });
                ts[i].start();
            }
            for (Thread t : ts) {
                t.join();
            }
            assertEquals(1, wins[0]);
        }
    }
}
