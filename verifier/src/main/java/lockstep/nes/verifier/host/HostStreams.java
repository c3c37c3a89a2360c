package lockstep.nes.verifier.host;

import java.util.ArrayDeque;

/**
 * Two engine hosts' RUN_STREAM streams as their controller sees them (processes mode and the
 * canary): the credits, the digests or chained records received by stream position, the inline
 * snapshots paired at compared positions, and the position both streams were compared to.
 *
 * <p>Credits: a host is sent RUN_STREAM requests of {@code chunk} positions, at most {@link #credit}
 * (default two) outstanding, and only while it is less than that many chunks past the compared
 * position, so it never runs more than one chunk more than that ahead of the slower host: that
 * bounds the drift and the buffers.
 * With chained records (STREAM_DIGESTS 3) a stretch's record comes alone at its last position;
 * the positions inside it compare as 0 on both sides.
 */
public final class HostStreams {
    /** Hears of a fault a host reports having fired. */
    public interface FaultListener {
        void fired(Stream host, HostClient.FaultFired fault);
    }

    /** Hears of each pair of inline snapshots both hosts took at the same compared position. */
    public interface SnapshotPair {
        void paired(long position, HostClient.Snapshot a, HostClient.Snapshot b);
    }

    /** The controller's view of one host's stream. */
    public final class Stream {
        public final int index;
        public final String name;
        /** The host (replaced when a stalled host is restarted). */
        public volatile HostClient client;
        /** Per-position digests, by position modulo its length (allocated on first use). */
        private long[] ring;
        private int mask;
        /** Chained records not yet compared: {position, record}, in order. */
        private final ArrayDeque<long[]> records = new ArrayDeque<>();
        /** The last position received. */
        public long received;
        /**
         * The last position the host is known to have passed: {@link #received}, or with chained
         * records (sent at stretch ends) the step before a stall it reported (FAULT_FIRED).
         */
        public long reached;
        private long requested;
        /** RUN_STREAM requests not yet answered with RUN_END. */
        public int outstanding;
        /** True once the host reached the last frame; its position there is {@link #endPosition}. */
        public boolean finished;
        public long endPosition = -1;
        /** The host's input frame, as of its latest snapshot or RUN_END. */
        public int frame;
        public long lastHeard = System.nanoTime();
        private final ArrayDeque<Pending> snapshots = new ArrayDeque<>();

        private Stream(int index, String name) {
            this.index = index;
            this.name = name;
        }

        private long[] ring() {
            if (ring == null) {
                int size = Integer.highestOneBit(Math.max(1024, (credit + 2) * chunk + 2 * batch)) << 1;
                ring = new long[size];
                mask = size - 1;
            }
            return ring;
        }

        private void reset(long position) {
            received = position;
            reached = position;
            requested = position;
            outstanding = 0;
            finished = false;
            endPosition = -1;
            snapshots.clear();
            records.clear();
            lastHeard = System.nanoTime();
        }

        private long digest(long position) {
            return ring()[(int) (position & mask)];
        }
    }

    private record Pending(long position, HostClient.Snapshot snapshot) {
    }

    private final int chunk;
    private final int batch;
    private final int untilFrame;
    private final int checkpointEvery;
    private final FaultListener faults;
    public final Stream a;
    public final Stream b;
    private boolean chained;
    /** Requests a host may have outstanding, and chunks it may run past the compared position. */
    private int credit = 2;
    /** The last position both streams agreed on. */
    private long compared;

    /**
     * Streams of {@code chunk}-position requests, DIGESTS of up to {@code batch}, to the end of
     * input frame {@code untilFrame}, with inline snapshots every {@code checkpointEvery} frames.
     */
    public HostStreams(String nameA, String nameB, int chunk, int batch, int untilFrame, int checkpointEvery,
            FaultListener faults) {
        if (chunk < 1 || batch < 1) {
            throw new IllegalArgumentException("stream chunk and batch must be at least 1");
        }
        this.chunk = chunk;
        this.batch = batch;
        this.untilFrame = untilFrame;
        this.checkpointEvery = checkpointEvery;
        this.faults = faults;
        this.a = new Stream(0, nameA);
        this.b = new Stream(1, nameB);
    }

    public Stream host(int index) {
        return index == 0 ? a : b;
    }

    /** True when the hosts send chained records (STREAM_DIGESTS 3), one per stretch. */
    public void chained(boolean on) {
        chained = on;
    }

    /**
     * Lets each host have {@code chunks} requests outstanding and run that many chunks past the
     * compared position (default 2): more lets a host slowed for a while (a compile, another
     * process) fall further behind before the other one waits for it. Set before the first
     * request (the per-cycle digests' ring is sized by it).
     */
    public void credit(int chunks) {
        if (chunks < 1) {
            throw new IllegalArgumentException("stream credit must be at least 1 chunk");
        }
        credit = chunks;
    }

    public long compared() {
        return compared;
    }

    /** Streams restart at {@code position} (after RESTORE a host's position is the snapshot's cycle count). */
    public void reset(long position) {
        compared = position;
        a.reset(position);
        b.reset(position);
    }

    /** Sends RUN_STREAM requests while a host has credit: at most {@link #credit} outstanding and chunks ahead. */
    public void topUp(Stream h) throws HostException {
        while (!h.finished && h.outstanding < credit && h.requested - compared < (long) credit * chunk) {
            h.requested += chunk;
            h.client.sendRunStream(h.requested, untilFrame, batch, checkpointEvery);
            if (h.outstanding++ == 0) {
                h.lastHeard = System.nanoTime();
            }
        }
    }

    /** Handles every message the host has sent so far; true if there was any. */
    public boolean drainAvailable(Stream h) throws HostException {
        boolean any = false;
        HostClient.StreamEvent e;
        while ((e = h.client.pollStream(0)) != null) {
            handle(h, e, true);
            any = true;
        }
        return any;
    }

    /** Reads the host's answers until it owes none (digests not kept). */
    public void drainAll(Stream h) throws HostException {
        while (h.outstanding > 0) {
            handle(h, h.client.awaitStream(), false);
        }
    }

    /**
     * A host that owes answers and sent nothing for {@code timeoutMillis} is hung: it is killed
     * and the failure thrown.
     */
    public void checkHung(long now, long timeoutMillis) throws HostException {
        for (Stream h : new Stream[] {a, b}) {
            long silent = (now - h.lastHeard) / 1_000_000;
            if (h.outstanding > 0 && silent > timeoutMillis) {
                h.client.destroy();
                throw new HostException(HostException.Kind.TIMEOUT, h.name, "hung: no digests for " + silent
                        + " ms after cycle " + Math.max(h.received, h.reached) + " (killed)");
            }
        }
    }

    /** Waits up to 1 ms for a message from the host furthest behind that owes one. */
    public void awaitAny() throws HostException {
        Stream wait = a.received <= b.received ? a : b;
        if (wait.outstanding == 0) {
            wait = host(1 - wait.index);
        }
        if (wait.outstanding > 0) {
            HostClient.StreamEvent e = wait.client.pollStream(1);
            if (e != null) {
                handle(wait, e, true);
            }
        }
    }

    /**
     * Compares what both hosts sent past the compared position: returns the first differing
     * position (the compared position then stands just before it), else -1 with the compared
     * position moved to the last both sent.
     */
    public long compare() {
        long upTo = Math.min(a.received, b.received);
        if (chained) {
            return compareRecords(upTo);
        }
        for (long p = compared + 1; p <= upTo; p++) {
            if (a.digest(p) != b.digest(p)) {
                compared = p - 1;
                return p;
            }
        }
        compared = Math.max(compared, upTo);
        return -1;
    }

    /**
     * Chained records: a position where only one host ended a stretch, or both with other
     * records, is the first difference (the positions inside stretches compare as 0).
     */
    private long compareRecords(long upTo) {
        while (true) {
            long[] x = a.records.peekFirst();
            long[] y = b.records.peekFirst();
            long px = x == null ? Long.MAX_VALUE : x[0];
            long py = y == null ? Long.MAX_VALUE : y[0];
            long p = Math.min(px, py);
            if (p > upTo) {
                break;
            }
            if (px != py || x[1] != y[1]) {
                compared = p - 1;
                return p;
            }
            a.records.removeFirst();
            b.records.removeFirst();
        }
        compared = Math.max(compared, upTo);
        return -1;
    }

    /** True when both hosts finished at the same position and the streams were compared to it. */
    public boolean done() {
        return a.finished && b.finished && a.endPosition == b.endPosition && compared >= a.endPosition;
    }

    /** The position after a host's end where the other ran on or ended elsewhere, else -1. */
    public long endMismatch() {
        for (Stream h : new Stream[] {a, b}) {
            Stream o = host(1 - h.index);
            if (h.finished && compared >= h.endPosition
                    && (o.received > h.endPosition || (o.finished && o.endPosition != h.endPosition))) {
                return h.endPosition + 1;
            }
        }
        return -1;
    }

    /**
     * Pairs the hosts' inline snapshots at compared positions and hands each pair to
     * {@code pairs}; a snapshot without a partner at its position is dropped.
     */
    public void pairSnapshots(SnapshotPair pairs) {
        ArrayDeque<Pending> x = a.snapshots;
        ArrayDeque<Pending> y = b.snapshots;
        while (!x.isEmpty() && !y.isEmpty()) {
            Pending sx = x.peekFirst();
            Pending sy = y.peekFirst();
            if (sx.position() != sy.position()) {
                ArrayDeque<Pending> lower = sx.position() < sy.position() ? x : y;
                if (lower.peekFirst().position() <= compared) {
                    lower.removeFirst(); // no partner at that position: never a checkpoint
                    continue;
                }
                break;
            }
            if (sx.position() > compared) {
                break;
            }
            x.removeFirst();
            y.removeFirst();
            pairs.paired(sx.position(), sx.snapshot(), sy.snapshot());
        }
        while (!x.isEmpty() && y.isEmpty() && x.peekFirst().position() < compared - 4L * chunk) {
            x.removeFirst();
        }
        while (!y.isEmpty() && x.isEmpty() && y.peekFirst().position() < compared - 4L * chunk) {
            y.removeFirst();
        }
    }

    private void handle(Stream h, HostClient.StreamEvent e, boolean keep) throws HostException {
        h.lastHeard = System.nanoTime();
        if (e instanceof HostClient.Digests d) {
            if (d.firstCycle() != h.received + 1 && !(chained && d.firstCycle() > h.received)) {
                throw new HostException(HostException.Kind.PROTOCOL, h.name, "digests for cycle " + d.firstCycle()
                        + " where " + (h.received + 1) + " was due");
            }
            long[] v = d.digests();
            if (chained) {
                // A chained stretch's record comes alone at its last position.
                if (keep) {
                    for (int i = 0; i < v.length; i++) {
                        h.records.addLast(new long[] {d.firstCycle() + i, v[i]});
                    }
                }
                h.received = d.firstCycle() - 1 + v.length;
                return;
            }
            if (keep) {
                long[] ring = h.ring();
                if (h.received + v.length - compared > ring.length) {
                    throw new IllegalStateException(h.name + " ran past its credit (" + (h.received + v.length)
                            + ", compared " + compared + ")");
                }
                for (int i = 0; i < v.length; i++) {
                    ring[(int) ((h.received + 1 + i) & h.mask)] = v[i];
                }
            }
            h.received += v.length;
        } else if (e instanceof HostClient.Snapshot s) {
            h.frame = s.frame();
            if (keep) {
                h.snapshots.addLast(new Pending(h.received, s));
            }
        } else if (e instanceof HostClient.RunEnd r) {
            h.outstanding--;
            h.frame = r.frame();
            if (r.frame() >= untilFrame && !h.finished) {
                h.finished = true;
                h.endPosition = r.cycles();
            }
        } else if (e instanceof HostClient.FaultFired f) {
            h.reached = Math.max(h.reached, f.position() - 1);
            if (faults != null) {
                faults.fired(h, f);
            }
        }
    }
}
