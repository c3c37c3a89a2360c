package lockstep.nes.core.apu;

/**
 * Turns the APU's per-CPU-cycle output level into PCM samples (16-bit signed mono) by
 * band-limited step synthesis: each change of the level adds a windowed-sinc step at its
 * exact sub-sample position, so nothing above the output's Nyquist frequency aliases back.
 * Then, like the console's output stage, a first-order high-pass (37 Hz) removes the DC
 * offset and a first-order low-pass (14 kHz) softens the edges.
 *
 * <p>All arithmetic is integer (the kernel is computed once with {@link StrictMath}), so the
 * samples are the same on every run and every JVM. This is an output sink, not machine state:
 * it is not saved or hashed. No allocation after construction.
 */
public final class AudioOutput {
    public static final int DEFAULT_RATE = 48_000;
    /** The CPU clock in Hz as a fraction (NTSC: 236.25 MHz / 11 / 12 = 236_250_000 / 132 Hz). */
    private final long cpuClockNum;
    private final long cpuClockDen;

    /** Kernel taps per step and sub-sample phases. */
    private static final int WIDTH = 16;
    private static final int PHASE_BITS = 8;
    private static final int PHASES = 1 << PHASE_BITS;
    /** Each phase's taps sum to 1 << KERNEL_BITS. */
    private static final int KERNEL_BITS = 14;
    private static final int[] KERNEL = buildKernel();

    /** Samples accumulated before they are moved to the ring. */
    private static final int CHUNK = 1024;
    private static final int RING = 1 << 15;

    private int sampleRate;
    /** Output samples per CPU cycle, 32.32 fixed point. */
    private long step;
    /** High-pass coefficient, 1.15 fixed point. */
    private int highPass;
    /** Low-pass coefficient, 0.16 fixed point. */
    private int lowPass;

    private final int[] diff = new int[CHUNK + 2 * WIDTH];
    /** Position of the current CPU cycle in samples from diff[0], 32.32 fixed point. */
    private long time;
    private int lastLevel;
    private int integrator;
    private int hpPrevIn;
    /** The high-pass output with 16 fraction bits (so small values decay fully to zero). */
    private long hpPrevOut;
    /** The low-pass output with 16 fraction bits. */
    private long lpOut;

    private final short[] ring = new short[RING];
    private long written;
    private long readPos;

    /** The APU feeding this output (it runs behind the CPU): caught up before samples are taken. */
    private final Apu source;

    /** An output fed at the NTSC CPU clock. */
    public AudioOutput(int sampleRate) {
        this(sampleRate, null, 236_250_000L, 132L);
    }

    /** An output fed by {@code source} at a CPU clock of {@code cpuClockNum / cpuClockDen} Hz. */
    AudioOutput(int sampleRate, Apu source, long cpuClockNum, long cpuClockDen) {
        this.source = source;
        this.cpuClockNum = cpuClockNum;
        this.cpuClockDen = cpuClockDen;
        configure(sampleRate);
    }

    /** Brings the feeding APU up to the console's present cycle (its samples so far are then all here). */
    private void catchUpSource() {
        if (source != null) {
            source.sync();
        }
    }

    /** Changes the output rate (e.g. 44,100 or 48,000 Hz); drops the samples not read yet. */
    public void setSampleRate(int rate) {
        catchUpSource();
        configure(rate);
    }

    private void configure(int rate) {
        if (rate < 8000 || rate > 192_000) {
            throw new IllegalArgumentException("sample rate " + rate);
        }
        sampleRate = rate;
        step = ((long) rate * cpuClockDen << 32) / cpuClockNum;
        double rc = 1.0 / (2 * StrictMath.PI * 37.0);
        double dt = 1.0 / rate;
        highPass = (int) StrictMath.round(32768 * rc / (rc + dt));
        lowPass = (int) StrictMath.round(65536 * (1 - StrictMath.exp(-2 * StrictMath.PI * 14_000.0 / rate)));
        java.util.Arrays.fill(diff, 0);
        time = 0;
        integrator = lastLevel << KERNEL_BITS;
        hpPrevIn = lastLevel;
        hpPrevOut = 0;
        lpOut = 0;
        readPos = written;
    }

    public int sampleRate() {
        return sampleRate;
    }

    /** One CPU cycle with the mixer's output {@code level}. */
    void sample(int level) {
        if (level != lastLevel) {
            addStep(level - lastLevel);
            lastLevel = level;
        }
        time += step;
        if ((time >>> 32) >= CHUNK) {
            flushSamples();
        }
    }

    /**
     * {@code n} CPU cycles with the same mixer output {@code level}: exactly what {@code n}
     * calls of {@link #sample} do (the same step, the same chunk flushes), in O(flushes).
     */
    void advance(int level, int n) {
        if (level != lastLevel) {
            addStep(level - lastLevel);
            lastLevel = level;
        }
        final long s = step;
        if (n == 1) {
            time += s;
            if ((time >>> 32) >= CHUNK) {
                flushSamples();
            }
            return;
        }
        final long end = (long) CHUNK << 32;
        // Mostly the chunk does not fill: no division then (n * s < 2^31 * 2^29 at 192 kHz: no overflow).
        final long t = time + n * s;
        if (t < end) {
            time = t;
            return;
        }
        while (true) {
            // The cycles until time reaches the end of the chunk (at least 1: time < end here).
            final long toFlush = (end - time + s - 1) / s;
            if (toFlush > n) {
                time += n * s;
                return;
            }
            time += toFlush * s;
            n -= (int) toFlush;
            flushSamples();
        }
    }

    private void addStep(int delta) {
        final int pos = (int) (time >>> 32);
        final int phase = (int) (time >>> (32 - PHASE_BITS)) & (PHASES - 1);
        final int[] d = diff;
        final int base = phase * WIDTH;
        for (int k = 0; k < WIDTH; k++) {
            d[pos + k] += delta * KERNEL[base + k];
        }
    }

    /** Moves every finished sample (those before the current cycle) to the ring. */
    public void flush() {
        catchUpSource();
        flushSamples();
    }

    private void flushSamples() {
        final int n = (int) (time >>> 32);
        final int[] d = diff;
        int acc = integrator;
        int prevIn = hpPrevIn;
        long prevOut = hpPrevOut;
        final long a = highPass;
        final long b = lowPass;
        long lp = lpOut;
        for (int i = 0; i < n; i++) {
            acc += d[i];
            int in = acc >> KERNEL_BITS;
            long out = ((long) (in - prevIn) << 16) + ((prevOut * a) >> 15);
            prevIn = in;
            prevOut = out;
            lp += ((out - lp) * b) >> 16;
            int s = (int) Math.max(-32768, Math.min(32767, (lp + 0x8000) >> 16));
            ring[(int) (written & (RING - 1))] = (short) s;
            written++;
        }
        integrator = acc;
        hpPrevIn = prevIn;
        hpPrevOut = prevOut;
        lpOut = lp;
        System.arraycopy(d, n, d, 0, d.length - n);
        java.util.Arrays.fill(d, d.length - n, d.length, 0);
        time -= (long) n << 32;
        if (written - readPos > RING) {
            readPos = written - RING;
        }
    }

    /** Samples waiting to be read (after {@link #flush}). */
    public int available() {
        catchUpSource();
        return (int) (written - readPos);
    }

    /** Total samples produced since construction. */
    public long produced() {
        catchUpSource();
        return written;
    }

    /** Flushes, then copies up to {@code len} samples into {@code dst}; returns how many. */
    public int read(short[] dst, int off, int len) {
        flush();
        int n = (int) Math.min(len, written - readPos);
        for (int i = 0; i < n; i++) {
            dst[off + i] = ring[(int) ((readPos + i) & (RING - 1))];
        }
        readPos += n;
        return n;
    }

    /** Windowed-sinc impulses (cutoff 0.45 x sample rate, Blackman window), one row per phase. */
    private static int[] buildKernel() {
        int[] k = new int[PHASES * WIDTH];
        double cutoff = 0.9;
        for (int p = 0; p < PHASES; p++) {
            double[] taps = new double[WIDTH];
            double sum = 0;
            for (int i = 0; i < WIDTH; i++) {
                double x = i - (WIDTH / 2 - 1) - (double) p / PHASES;
                double sinc = x == 0 ? 1.0 : StrictMath.sin(StrictMath.PI * cutoff * x) / (StrictMath.PI * cutoff * x);
                double w = (x + WIDTH / 2.0) / WIDTH;
                double window = 0.42 - 0.5 * StrictMath.cos(2 * StrictMath.PI * w) + 0.08 * StrictMath.cos(4 * StrictMath.PI * w);
                taps[i] = sinc * window;
                sum += taps[i];
            }
            int total = 0;
            int maxIndex = 0;
            for (int i = 0; i < WIDTH; i++) {
                int v = (int) StrictMath.round(taps[i] / sum * (1 << KERNEL_BITS));
                k[p * WIDTH + i] = v;
                total += v;
                if (taps[i] > taps[maxIndex]) {
                    maxIndex = i;
                }
            }
            // Exact unit gain per phase, so steps settle at exactly the new level.
            k[p * WIDTH + maxIndex] += (1 << KERNEL_BITS) - total;
        }
        return k;
    }
}
