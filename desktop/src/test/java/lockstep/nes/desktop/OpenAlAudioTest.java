package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * The OpenAL sink against OpenAL Soft's null backend (selected by ALSOFT_DRIVERS=null in the
 * pom), which plays into nothing at the real rate: queueing, playing, reclaiming, dropping.
 */
class OpenAlAudioTest {
    @Test
    void queuedSamplesArePlayedAtTheSampleRateAndBuffersComeBack() throws Exception {
        assumeTrue("null".equals(System.getenv("ALSOFT_DRIVERS")), "run through Maven (ALSOFT_DRIVERS=null)");
        String[] why = {""};
        OpenAlAudio a = OpenAlAudio.open(48_000, why);
        assertNotNull(a, why[0]);
        try {
            assertTrue(a.description().startsWith("OpenAL: "), a.description());
            assertEquals(0, a.queued());
            short[] frame = new short[800];
            for (int i = 0; i < 3; i++) {
                a.write(frame, frame.length);
            }
            int q0 = a.queued();
            assertTrue(q0 > 1200 && q0 <= 2400, "three frames queued: " + q0);
            Thread.sleep(25);
            assertTrue(a.queued() < q0, "playing: " + a.queued() + " < " + q0);
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (a.queued() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, a.queued(), "all played within 3 s");
            for (int i = 0; i < 12; i++) {
                a.write(frame, frame.length);
            }
            assertTrue(a.queued() <= 8 * 800, "eight buffers at most, the rest dropped: " + a.queued());
            assertTrue(a.queued() > 4 * 800, "the reclaimed buffers were used again: " + a.queued());
        } finally {
            a.close();
        }
    }
}
