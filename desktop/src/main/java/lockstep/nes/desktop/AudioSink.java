package lockstep.nes.desktop;

/** Where the sound goes: OpenAL, or nothing (paced by a timer) when there is no device. */
interface AudioSink extends AutoCloseable {
    /** Samples per second. */
    int rate();

    /** Queues 16-bit mono samples; drops them when the queue is full. */
    void write(short[] samples, int n);

    /** Samples queued and not played yet. */
    int queued();

    /** What this sink is, for the terminal ("OpenAL: <device>", "no audio device ..."). */
    String description();

    @Override
    void close();
}
