package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.core.Console;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AudioOutputTest {
    private static final int CPU_HZ = 1_789_773;

    /** One second of a square wave toggling every {@code halfPeriod} CPU cycles. */
    private static short[] square(int halfPeriod, int amplitude) {
        AudioOutput out = new AudioOutput(48_000);
        short[] buf = new short[60_000];
        int n = 0;
        for (int i = 0; i < CPU_HZ; i++) {
            out.sample((i / halfPeriod) % 2 == 0 ? amplitude : 0);
            if (i % 29_781 == 0) {
                n += out.read(buf, n, buf.length - n);
            }
        }
        n += out.read(buf, n, buf.length - n);
        return java.util.Arrays.copyOf(buf, n);
    }

    @Test
    void producesTheSampleRate() {
        short[] s = square(2034, 4000);
        assertTrue(Math.abs(s.length - 48_000) <= 1, "samples in one second: " + s.length);
    }

    @Test
    void sampleRateCanBeChanged() {
        AudioOutput out = new AudioOutput(48_000);
        out.setSampleRate(44_100);
        short[] buf = new short[50_000];
        int n = 0;
        for (int i = 0; i < CPU_HZ; i++) {
            out.sample((i / 2034) % 2 * 3000);
            if (i % 29_781 == 0) {
                n += out.read(buf, n, buf.length - n);
            }
        }
        n += out.read(buf, n, buf.length - n);
        assertTrue(Math.abs(n - 44_100) <= 1, "samples in one second: " + n);
        assertEquals(44_100, out.sampleRate());
    }

    @Test
    void toneHasTheRightFrequency() {
        // 1789773 / (2 * 2034) = 440 Hz: 880 sign changes per second.
        short[] s = square(2034, 4000);
        int crossings = 0;
        for (int i = 4800 + 1; i < s.length; i++) {
            if ((s[i - 1] < 0) != (s[i] < 0)) {
                crossings++;
            }
        }
        assertTrue(Math.abs(crossings - 880 * 0.9) <= 6, "crossings " + crossings);
    }

    @Test
    void ultrasonicContentDoesNotAlias() {
        // A 56 kHz square (above Nyquist) must come out as near-silence after the DC is gone.
        short[] s = square(16, 4000);
        long sumSq = 0;
        for (int i = 9600; i < s.length; i++) {
            sumSq += (long) s[i] * s[i];
        }
        double rms = Math.sqrt((double) sumSq / (s.length - 9600));
        assertTrue(rms < 0.02 * 2000, "alias rms " + rms);
    }

    @Test
    void isDeterministic() {
        assertArrayEquals(square(1000, 3000), square(1000, 3000));
    }

    @Test
    void aSpanOfEqualLevelsGivesTheSameSamplesAsCycleByCycle() {
        for (int rate : new int[] {8_000, 44_100, 48_000, 192_000}) {
            java.util.Random r = new java.util.Random(rate);
            AudioOutput cycles = new AudioOutput(rate);
            AudioOutput spans = new AudioOutput(rate);
            short[] a = new short[200_000];
            short[] b = new short[200_000];
            int na = 0;
            int nb = 0;
            for (int k = 0; k < 3000; k++) {
                int level = r.nextInt(4) == 0 ? 0 : r.nextInt(32_000);
                int n = switch (r.nextInt(3)) {
                    case 0 -> 1 + r.nextInt(3);
                    case 1 -> 1 + r.nextInt(400);
                    default -> 1 + r.nextInt(60_000); // several chunks
                };
                for (int i = 0; i < n; i++) {
                    cycles.sample(level);
                }
                spans.advance(level, n);
                if (r.nextInt(8) == 0) {
                    na += cycles.read(a, na, a.length - na);
                    nb += spans.read(b, nb, b.length - nb);
                    assertEquals(na, nb, "rate " + rate + " span " + k);
                    if (na > a.length / 2) {
                        assertArrayEquals(java.util.Arrays.copyOf(a, na), java.util.Arrays.copyOf(b, nb));
                        na = 0;
                        nb = 0;
                    }
                }
            }
            na += cycles.read(a, na, a.length - na);
            nb += spans.read(b, nb, b.length - nb);
            assertEquals(na, nb);
            assertArrayEquals(java.util.Arrays.copyOf(a, na), java.util.Arrays.copyOf(b, nb), "rate " + rate);
        }
    }

    @Test
    void readingInChunksGivesTheSameSamples() {
        AudioOutput a = new AudioOutput(44_100);
        AudioOutput b = new AudioOutput(44_100);
        short[] whole = new short[50_000];
        short[] all = new short[50_000];
        int nw = 0;
        int na = 0;
        short[] chunk = new short[300];
        for (int i = 0; i < CPU_HZ; i++) {
            int level = (i / 777) % 3 * 1000;
            a.sample(level);
            b.sample(level);
            if (i % 100_000 == 0) {
                nw += a.read(whole, nw, whole.length - nw);
            }
            if (i % 5_003 == 0) {
                int n = b.read(chunk, 0, chunk.length);
                System.arraycopy(chunk, 0, all, na, n);
                na += n;
            }
        }
        nw += a.read(whole, nw, whole.length - nw);
        int n;
        while ((n = b.read(chunk, 0, chunk.length)) > 0) {
            System.arraycopy(chunk, 0, all, na, n);
            na += n;
        }
        assertEquals(nw, na);
        assertArrayEquals(java.util.Arrays.copyOf(whole, nw), java.util.Arrays.copyOf(all, na));
    }

    @Test
    void consoleRunningAToneProgramProducesAudio() {
        Console c = TestCarts.nopConsole();
        c.apu().write(0x4015, 0x01);
        c.apu().write(0x4000, 0xBF);
        c.apu().write(0x4002, 0xFD);
        c.apu().write(0x4003, 0x08);
        short[] buf = new short[4096];
        int total = 0;
        int peak = 0;
        for (int f = 0; f < 60; f++) {
            c.runFrame();
            int n = c.apu().audio().read(buf, 0, buf.length);
            total += n;
            for (int i = 0; i < n; i++) {
                peak = Math.max(peak, Math.abs(buf[i]));
            }
        }
        assertTrue(Math.abs(total - 48_000) < 200, "samples " + total);
        assertTrue(peak > 1000, "peak " + peak);
    }

    @Test
    void wavWriterWritesAValidHeader(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("out.wav");
        short[] s = square(2034, 4000);
        try (WavWriter w = new WavWriter(file, 48_000)) {
            w.write(s, 0, 1000);
            w.write(s, 1000, 234);
        }
        byte[] data = Files.readAllBytes(file);
        assertEquals(44 + 1234 * 2, data.length);
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("RIFF", new String(data, 0, 4, "US-ASCII"));
        assertEquals(36 + 1234 * 2, b.getInt(4));
        assertEquals("WAVE", new String(data, 8, 4, "US-ASCII"));
        assertEquals(1, b.getShort(20));
        assertEquals(1, b.getShort(22));
        assertEquals(48_000, b.getInt(24));
        assertEquals(96_000, b.getInt(28));
        assertEquals(16, b.getShort(34));
        assertEquals(1234 * 2, b.getInt(40));
        assertEquals(s[1233], b.getShort(44 + 1233 * 2));
    }
}
