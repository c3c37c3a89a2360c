package lockstep.nes.core.nsf;

import java.nio.charset.StandardCharsets;

import lockstep.nes.core.Console;
import lockstep.nes.core.demo.Assembler;

/** NSF files built for tests from a program written with the project's assembler. */
final class TestNsf {
    private TestNsf() {
    }

    /**
     * An NSF of {@code songs} songs whose program ({@code source}, which defines {@code init} and
     * {@code play}) loads at $8000, not bank-switched, asking for {@code chips}, playing every
     * {@code ntscPeriod} microseconds.
     */
    static byte[] of(String source, int chips, int ntscPeriod, int songs) {
        Assembler.Program p = Assembler.assemble(".org $8000\n" + source + "\n");
        int end = p.size();
        byte[] program = p.image(0x8000, Math.max(1, end), 0);
        return header(program, 0x8000, p.symbol("init"), p.symbol("play"), chips, ntscPeriod, songs, 1, new int[8]);
    }

    /** An NSF header over {@code program}. */
    static byte[] header(byte[] program, int load, int init, int play, int chips, int ntscPeriod, int songs,
                         int firstSong, int[] banks) {
        byte[] d = new byte[0x80 + program.length];
        d[0] = 'N';
        d[1] = 'E';
        d[2] = 'S';
        d[3] = 'M';
        d[4] = 0x1A;
        d[5] = 1;
        d[6] = (byte) songs;
        d[7] = (byte) firstSong;
        put16(d, 8, load);
        put16(d, 0xA, init);
        put16(d, 0xC, play);
        text(d, 0xE, "Test Tones");
        text(d, 0x2E, "lockstep");
        text(d, 0x4E, "2026 lockstep-nes");
        put16(d, 0x6E, ntscPeriod);
        for (int i = 0; i < 8; i++) {
            d[0x70 + i] = (byte) banks[i];
        }
        put16(d, 0x78, 20000);
        d[0x7B] = (byte) chips;
        System.arraycopy(program, 0, d, 0x80, program.length);
        return d;
    }

    static void put16(byte[] d, int i, int v) {
        d[i] = (byte) v;
        d[i + 1] = (byte) (v >> 8);
    }

    private static void text(byte[] d, int at, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, d, at, b.length);
    }

    /** The audio of {@code seconds} seconds of song 0 of {@code nsf}, after the first 0.1 s. */
    static short[] play(byte[] nsf, double seconds) throws NsfFormatException {
        Console c = NsfPlayer.console(NsfFile.parse("test.nsf", nsf), 0, null);
        int rate = c.apu().audio().sampleRate();
        short[] buf = new short[1 << 16];
        short[] out = new short[(int) (seconds * rate)];
        int n = 0;
        int skip = rate / 10;
        while (n < out.length) {
            c.runFrame();
            int got = c.apu().audio().read(buf, 0, buf.length);
            for (int i = 0; i < got && n < out.length; i++) {
                if (skip > 0) {
                    skip--;
                } else {
                    out[n++] = buf[i];
                }
            }
        }
        return out;
    }

    /**
     * The fundamental frequency of {@code samples} at {@code rate} Hz: the shortest lag (between
     * 1/2000 and 1/50 s) whose autocorrelation is within 5% of the best, refined between samples.
     */
    static double pitch(short[] samples, int rate) {
        double mean = 0;
        for (short s : samples) {
            mean += s;
        }
        mean /= samples.length;
        double[] x = new double[samples.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = samples[i] - mean;
        }
        int minLag = rate / 2000;
        int maxLag = rate / 50;
        double[] r = new double[maxLag + 2];
        double best = 0;
        for (int lag = minLag; lag <= maxLag + 1; lag++) {
            double s = 0;
            for (int i = 0; i + lag < x.length; i++) {
                s += x[i] * x[i + lag];
            }
            r[lag] = s / (x.length - lag);
            best = Math.max(best, r[lag]);
        }
        if (best <= 0) {
            return 0;
        }
        for (int lag = minLag + 1; lag <= maxLag; lag++) {
            if (r[lag] >= 0.95 * best && r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1]) {
                // Parabolic interpolation of the peak.
                double a = r[lag - 1];
                double b = r[lag];
                double c = r[lag + 1];
                double d = a - 2 * b + c;
                double shift = d == 0 ? 0 : 0.5 * (a - c) / d;
                return rate / (lag + shift);
            }
        }
        return 0;
    }

    /** Peak-to-peak amplitude of {@code samples}. */
    static int swing(short[] samples) {
        int lo = Short.MAX_VALUE;
        int hi = Short.MIN_VALUE;
        for (short s : samples) {
            lo = Math.min(lo, s);
            hi = Math.max(hi, s);
        }
        return hi - lo;
    }
}
