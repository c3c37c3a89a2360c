package lockstep.nes.verifier;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A bounded ring of verified checkpoints (both engines agreed at that point): frame, cycle,
 * the epoch it was written in, the canonical snapshot bytes and their hash. Writes are fenced by
 * epoch: a checkpoint from an older epoch is rejected.
 *
 * <p><b>Compact storage.</b> The newest checkpoint's snapshot is kept as given. Each older one
 * is stored as a <i>reverse delta</i>: its snapshot minus the next newer one's, byte by byte,
 * Deflate compressed (consecutive snapshots differ in a few hundred bytes, so the delta is
 * mostly zeros, and a counter or position that moved by a small step gives a small value);
 * every {@code keyframeEvery}-th checkpoint (by sequence number), and any whose snapshot length
 * differs from its successor's, is stored as its whole snapshot, Deflate compressed (a keyframe).
 * Reverse deltas make eviction free (nothing depends on the oldest entry) and the newest
 * checkpoint, the one rollback wants, O(1); an older one is rebuilt from the nearest newer
 * keyframe (or the newest) by applying at most {@code keyframeEvery - 1} deltas, and is
 * byte-for-byte the snapshot that was added. {@link #bytes()} is the memory this takes (stored
 * bytes plus the newest snapshot), {@link #rawBytes()} what plain snapshots would take.
 *
 * <p><b>Rewind.</b> A rewind buffer is this ring with a short cadence: {@link #forDuration}
 * sizes it by seconds of play, {@link #atOrBeforeFrame} finds the checkpoint to return to,
 * {@link #get}/{@link #size} step through it (0 = oldest), and {@link #truncateAfterFrame} drops
 * the checkpoints of the abandoned future after rewinding. Memory per minute of play, measured
 * at the verifier's and the rewind cadence: docs/design/verification.md (CheckpointBenchmark,
 * CheckpointRingTest).
 *
 * <p>Thread-safe (all access synchronises on the ring). A returned {@link Checkpoint}'s bytes
 * are owned by the caller, except the newest checkpoint's, which are the array that was added:
 * never modify either.
 */
public final class CheckpointRing {
    /** One checkpoint. The snapshot bytes are owned by the ring (never modified). */
    public record Checkpoint(long frame, long cycle, long epoch, byte[] snapshot, String hash) {
    }

    /** Frames per second of NTSC (60.0988), for {@link #forDuration}. */
    /**
     * Where a checkpoint stands, for people: "frame 120 (cycle 3574321)", or, for the power-on
     * checkpoint (its cycle counter is -1 until the first cycle ends), "frame 0 (power-on, before
     * the first cycle)".
     */
    public static String where(long frame, long cycle) {
        return cycle < 0 ? "frame " + frame + " (power-on, before the first cycle)"
                : "frame " + frame + " (cycle " + cycle + ")";
    }

    public static final double NTSC_FPS = 39_375_000.0 / 655_171.5;
    /** Default keyframe spacing: bounds an old checkpoint's rebuild to 63 deltas (about 1 ms). */
    public static final int DEFAULT_KEYFRAME_EVERY = 64;

    /** A stored checkpoint: packed bytes (null for the newest, whose snapshot is {@link #head}). */
    private static final class Entry {
        final long frame;
        final long cycle;
        final long epoch;
        final String hash;
        final long sequence;
        final int length;
        byte[] packed;
        boolean keyframe;

        Entry(Checkpoint cp, long sequence) {
            this.frame = cp.frame();
            this.cycle = cp.cycle();
            this.epoch = cp.epoch();
            this.hash = cp.hash();
            this.sequence = sequence;
            this.length = cp.snapshot().length;
        }
    }

    private final int capacity;
    private final int keyframeEvery;
    private final EpochFence fence;
    private final List<Entry> ring = new ArrayList<>();
    /** The newest checkpoint's snapshot. */
    private byte[] head;
    private long sequence;
    private long storedBytes;
    private long rawBytes;
    private final Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
    private final Inflater inflater = new Inflater();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final byte[] chunk = new byte[8192];

    public CheckpointRing(int capacity, EpochFence fence) {
        this(capacity, DEFAULT_KEYFRAME_EVERY, fence);
    }

    /** @param keyframeEvery every how many checkpoints a whole snapshot is stored (1 = no deltas) */
    public CheckpointRing(int capacity, int keyframeEvery, EpochFence fence) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        if (keyframeEvery < 1) {
            throw new IllegalArgumentException("keyframeEvery must be >= 1");
        }
        this.capacity = capacity;
        this.keyframeEvery = keyframeEvery;
        this.fence = fence;
    }

    /**
     * A ring that keeps {@code seconds} of play at one checkpoint every {@code everyFrames}
     * frames (NTSC): e.g. {@code forDuration(120, 60, fence)} is the verifier's default (2
     * minutes, every 60 frames), {@code forDuration(60, 4, fence)} a one-minute rewind buffer.
     */
    public static CheckpointRing forDuration(double seconds, int everyFrames, EpochFence fence) {
        if (everyFrames < 1 || !(seconds > 0)) {
            throw new IllegalArgumentException("need seconds > 0 and everyFrames >= 1");
        }
        int capacity = (int) Math.max(1, Math.ceil(seconds * NTSC_FPS / everyFrames));
        return new CheckpointRing(capacity, fence);
    }

    /** Adds a checkpoint written in {@code cp.epoch()}; false if that epoch is stale. */
    public boolean add(Checkpoint cp) {
        return fence.write(cp.epoch(), () -> {
            synchronized (ring) {
                if (ring.size() == capacity) {
                    evictOldest();
                }
                if (!ring.isEmpty()) {
                    pack(ring.get(ring.size() - 1), head, cp.snapshot());
                }
                ring.add(new Entry(cp, sequence++));
                head = cp.snapshot();
                rawBytes += head.length;
            }
        });
    }

    /** The newest checkpoint, or null. */
    public Checkpoint latest() {
        synchronized (ring) {
            return ring.isEmpty() ? null : checkpoint(ring.size() - 1);
        }
    }

    /** The newest checkpoint at or before {@code cycle}, or null. */
    public Checkpoint latestAtOrBefore(long cycle) {
        synchronized (ring) {
            for (int i = ring.size() - 1; i >= 0; i--) {
                if (ring.get(i).cycle <= cycle) {
                    return checkpoint(i);
                }
            }
            return null;
        }
    }

    /** The newest checkpoint at or before frame {@code frame} (where a rewind returns to), or null. */
    public Checkpoint atOrBeforeFrame(long frame) {
        synchronized (ring) {
            for (int i = ring.size() - 1; i >= 0; i--) {
                if (ring.get(i).frame <= frame) {
                    return checkpoint(i);
                }
            }
            return null;
        }
    }

    /** Checkpoint {@code i}, 0 being the oldest kept and {@code size() - 1} the newest. */
    public Checkpoint get(int i) {
        synchronized (ring) {
            if (i < 0 || i >= ring.size()) {
                throw new IndexOutOfBoundsException(i + " of " + ring.size());
            }
            return checkpoint(i);
        }
    }

    /**
     * Drops every checkpoint after frame {@code frame} (after a rewind to it, they belong to a
     * future that will not happen); returns how many were dropped.
     */
    public int truncateAfterFrame(long frame) {
        synchronized (ring) {
            int keep = ring.size();
            while (keep > 0 && ring.get(keep - 1).frame > frame) {
                keep--;
            }
            int dropped = ring.size() - keep;
            if (dropped == 0) {
                return 0;
            }
            byte[] newHead = keep > 0 ? rebuild(keep - 1) : null;
            while (ring.size() > keep) {
                Entry e = ring.remove(ring.size() - 1);
                rawBytes -= e.length;
                if (e.packed != null) {
                    storedBytes -= e.packed.length;
                }
            }
            if (keep > 0) {
                Entry last = ring.get(keep - 1);
                storedBytes -= last.packed.length;
                last.packed = null;
                last.keyframe = false;
            }
            head = newHead;
            return dropped;
        }
    }

    public int size() {
        synchronized (ring) {
            return ring.size();
        }
    }

    public int capacity() {
        return capacity;
    }

    /** Memory held for the snapshots: the packed older checkpoints plus the newest snapshot. */
    public long bytes() {
        synchronized (ring) {
            return storedBytes + (head == null ? 0 : head.length);
        }
    }

    /** What the kept checkpoints would take as plain snapshots. */
    public long rawBytes() {
        synchronized (ring) {
            return rawBytes;
        }
    }

    // ---- packing ---------------------------------------------------------------------------

    private void evictOldest() {
        Entry e = ring.remove(0);
        rawBytes -= e.length;
        if (e.packed != null) {
            storedBytes -= e.packed.length;
        } else {
            head = null;
        }
    }

    /** Stores {@code e} (whose snapshot is {@code bytes}) relative to its successor {@code newer}. */
    private void pack(Entry e, byte[] bytes, byte[] newer) {
        if (e.sequence % keyframeEvery == 0 || bytes.length != newer.length) {
            e.keyframe = true;
            e.packed = deflate(bytes);
        } else {
            byte[] x = new byte[bytes.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = (byte) (bytes[i] - newer[i]);
            }
            e.keyframe = false;
            e.packed = deflate(x);
        }
        storedBytes += e.packed.length;
    }

    private Checkpoint checkpoint(int i) {
        Entry e = ring.get(i);
        return new Checkpoint(e.frame, e.cycle, e.epoch, rebuild(i), e.hash);
    }

    /** The snapshot of entry {@code i}: the nearest newer keyframe (or the head), then deltas back. */
    private byte[] rebuild(int i) {
        int k = i;
        while (k < ring.size() - 1 && !ring.get(k).keyframe) {
            k++;
        }
        Entry base = ring.get(k);
        byte[] bytes;
        if (base.packed == null) {
            bytes = k == i ? head : head.clone();
        } else {
            bytes = inflate(base.packed, base.length);
        }
        for (int j = k - 1; j >= i; j--) {
            Entry d = ring.get(j);
            byte[] x = inflate(d.packed, d.length);
            for (int n = 0; n < x.length; n++) {
                bytes[n] += x[n];
            }
        }
        return bytes;
    }

    private byte[] deflate(byte[] data) {
        deflater.reset();
        deflater.setInput(data);
        deflater.finish();
        out.reset();
        while (!deflater.finished()) {
            int n = deflater.deflate(chunk);
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    private byte[] inflate(byte[] packed, int length) {
        inflater.reset();
        inflater.setInput(packed);
        byte[] result = new byte[length];
        try {
            int n = 0;
            while (n < length) {
                int r = inflater.inflate(result, n, length - n);
                if (r == 0 && (inflater.finished() || inflater.needsInput())) {
                    break;
                }
                n += r;
            }
            if (n != length) {
                throw new IllegalStateException("checkpoint ring: corrupt packed checkpoint");
            }
        } catch (DataFormatException e) {
            throw new IllegalStateException("checkpoint ring: corrupt packed checkpoint", e);
        }
        return result;
    }
}
