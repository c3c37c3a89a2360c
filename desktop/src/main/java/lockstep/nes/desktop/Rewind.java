package lockstep.nes.desktop;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The rewind buffer: a ring of snapshots taken every {@code interval} frames (deflated, a
 * 16 KiB snapshot becomes about 2 KiB), each with the buttons of the frame that followed it.
 * Holding rewind steps back one checkpoint per displayed frame: load it, run its one frame to
 * get a picture, and forget every checkpoint after it. With the defaults (every 4 frames,
 * 90 seconds) a 60-second rewind is always there once the game has run that long.
 *
 * <p>Not the verifier's CheckpointRing: a rewind must forget the checkpoints after the point it
 * returns to, and needs neither their SHA-256 hashes, epochs nor locks; buffers are reused.
 */
public final class Rewind {
    /** NTSC frames per second (the refresh the capacity is computed for). */
    public static final double NES_FPS = 60.0988;

    /** What the rewind buffer needs from an engine. */
    public interface Engine {
        /** Saves a snapshot into {@link #saved()} and returns its length. */
        int save();

        byte[] saved();

        /** Loads a snapshot this engine saved (never fails for one of its own). */
        void load(byte[] data, int length);

        /** Runs one frame with these buttons. */
        void replayFrame(int buttons0, int buttons1);
    }

    private final int interval;
    private final int capacity;
    private final byte[][] data;
    private final int[] length;
    private final long[] tick;
    private final int[] buttons;
    private int newest = -1;
    private int count;

    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    private final Inflater inflater = new Inflater();
    private byte[] scratch = new byte[64 * 1024];
    private byte[] unpacked = new byte[64 * 1024];

    public Rewind(int interval, double seconds) {
        if (interval < 1 || seconds <= 0) {
            throw new IllegalArgumentException("interval " + interval + ", seconds " + seconds);
        }
        this.interval = interval;
        this.capacity = (int) Math.ceil(seconds * NES_FPS / interval) + 1;
        this.data = new byte[capacity][];
        this.length = new int[capacity];
        this.tick = new long[capacity];
        this.buttons = new int[capacity];
    }

    /** Every 4 frames, 90 seconds. */
    public static Rewind standard() {
        return new Rewind(4, 90);
    }

    /** Before frame {@code t} runs with these buttons: takes a checkpoint every interval frames. */
    public void beforeFrame(long t, Engine e, int buttons0, int buttons1) {
        if (t % interval != 0) {
            return;
        }
        int n = e.save();
        int packed = deflate(e.saved(), n);
        int i = (newest + 1) % capacity;
        if (data[i] == null || data[i].length < packed) {
            data[i] = new byte[packed + packed / 4];
        }
        System.arraycopy(scratch, 0, data[i], 0, packed);
        length[i] = packed;
        tick[i] = t;
        buttons[i] = (buttons0 & 0xFF) | (buttons1 & 0xFF) << 8;
        newest = i;
        if (count < capacity) {
            count++;
        }
    }

    /** Deflates into {@code scratch}; returns the length. */
    private int deflate(byte[] src, int n) {
        deflater.reset();
        deflater.setInput(src, 0, n);
        deflater.finish();
        int out = 0;
        while (!deflater.finished()) {
            if (out == scratch.length) {
                scratch = Arrays.copyOf(scratch, scratch.length * 2);
            }
            out += deflater.deflate(scratch, out, scratch.length - out);
        }
        return out;
    }

    /**
     * One step back from frame {@code t}: restores the newest checkpoint at least two frames
     * back, runs its frame, drops the checkpoints after it, and returns the new frame number
     * (checkpoint + 1). Returns -1, changing nothing, when the buffer holds nothing older.
     */
    public long stepBack(long t, Engine e) {
        if (count == 0 || tick[oldestIndex()] >= t - 1) {
            return -1;
        }
        while (tick[newest] >= t - 1) {
            drop();
        }
        int i = newest;
        int n = inflate(data[i], length[i]);
        e.load(unpacked, n);
        e.replayFrame(buttons[i] & 0xFF, buttons[i] >>> 8);
        return tick[i] + 1;
    }

    private int inflate(byte[] src, int n) {
        inflater.reset();
        inflater.setInput(src, 0, n);
        int out = 0;
        try {
            while (!inflater.finished()) {
                if (out == unpacked.length) {
                    unpacked = Arrays.copyOf(unpacked, unpacked.length * 2);
                }
                out += inflater.inflate(unpacked, out, unpacked.length - out);
            }
        } catch (DataFormatException e) {
            throw new IllegalStateException("rewind checkpoint does not inflate", e);
        }
        return out;
    }

    private int oldestIndex() {
        return ((newest - count + 1) % capacity + capacity) % capacity;
    }

    private void drop() {
        newest = (newest - 1 + capacity) % capacity;
        count--;
    }

    public void clear() {
        count = 0;
        newest = -1;
    }

    public int size() {
        return count;
    }

    public int capacity() {
        return capacity;
    }

    /** The frame of the oldest checkpoint, or -1 when empty. */
    public long oldestTick() {
        return count == 0 ? -1 : tick[oldestIndex()];
    }

    /** Bytes held by the stored checkpoints. */
    public long bytes() {
        long n = 0;
        for (int k = 0; k < count; k++) {
            n += length[((newest - k) % capacity + capacity) % capacity];
        }
        return n;
    }

    /** Seconds of play the buffer can go back from frame {@code t}. */
    public double secondsBack(long t) {
        return count == 0 ? 0 : (t - oldestTick()) / NES_FPS;
    }
}
