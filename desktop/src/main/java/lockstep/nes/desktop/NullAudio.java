package lockstep.nes.desktop;

import java.util.function.LongSupplier;

/**
 * The sink used when no audio device opens (a CI machine under Xvfb): samples are dropped, but
 * "played" at exactly the sample rate by a clock, so the game is paced as it would be with
 * sound. The clock is the frontend's (the engine never sees it).
 */
final class NullAudio implements AudioSink {
    private final int rate;
    private final String why;
    private final LongSupplier nanos;
    private final int capacity;
    private long written;
    private long startNanos = -1;

    NullAudio(int rate, int capacity, String why, LongSupplier nanos) {
        this.rate = rate;
        this.capacity = capacity;
        this.why = why;
        this.nanos = nanos;
    }

    NullAudio(int rate, int capacity, String why) {
        this(rate, capacity, why, System::nanoTime);
    }

    @Override
    public int rate() {
        return rate;
    }

    private long played() {
        if (startNanos < 0) {
            return 0;
        }
        return (nanos.getAsLong() - startNanos) * rate / 1_000_000_000L;
    }

    @Override
    public void write(short[] samples, int n) {
        if (startNanos < 0) {
            startNanos = nanos.getAsLong();
        }
        long q = queued();
        if (q == 0) {
            // Ran dry (paused, or the engine is slower than real time): restart the clock here.
            startNanos = nanos.getAsLong();
            written = 0;
        }
        if (q + n <= capacity) {
            written += n;
        }
    }

    @Override
    public int queued() {
        return (int) Math.max(0, written - played());
    }

    @Override
    public String description() {
        return "no audio device (" + why + "): silent, paced by a timer at " + rate + " Hz";
    }

    @Override
    public void close() {
    }
}
