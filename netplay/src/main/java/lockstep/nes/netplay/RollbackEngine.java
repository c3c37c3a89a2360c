package lockstep.nes.netplay;

import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.verifier.FaultSpec;

/**
 * One peer's engine under rollback. Frames {@code [0, present)} have been simulated, each with
 * both sides' inputs: the remote side's where known, else predicted (its last buttons held).
 * The state at the start of each of the last {@link #RING} frames is kept as a snapshot in a
 * ring of reused buffers, with the full-state digest at each frame's end. A remote input that
 * differs from the prediction a frame was simulated with marks that frame wrong; the next
 * {@link #advance} first loads its snapshot and re-simulates up to the present.
 *
 * <p>Side 0 is the host (controller port 0), side 1 the joiner (port 1). No network here: the
 * peer feeds inputs in, which keeps this deterministic and testable alone.
 */
final class RollbackEngine {
    /** Frames of snapshots and digests kept (more than any window, plus the digest exchange's lag). */
    static final int RING = 128;

    final Cartridge cart;
    final Console console;
    final int side;
    private final Snapshots snapshots;
    private final CycleDigest digest;
    private final PeerFaults faults;
    private final InputLog[] logs = {new InputLog(), new InputLog()};
    /** The remote input each frame in the ring was simulated with. */
    private final int[] usedRemote = new int[RING];
    private final byte[][] slots = new byte[RING][];
    private final int[] slotLength = new int[RING];
    private final long[] digests = new long[RING];
    private int present;
    /** The earliest frame simulated with a wrong prediction (Integer.MAX_VALUE: none). */
    private int firstWrong = Integer.MAX_VALUE;

    private long rollbacks;
    private int deepest;
    private long resimulated;
    private final RollbackListener listener;

    /** Told of each rollback: its depth in frames and the time it took. */
    interface RollbackListener {
        void rolledBack(int depth, long nanos);
    }

    RollbackEngine(Cartridge cart, int side, int delay, List<FaultSpec> faults, RollbackListener listener)
            throws RomFormatException {
        this.cart = cart;
        this.console = Console.create(cart);
        this.side = side;
        this.snapshots = new Snapshots(console);
        this.digest = new CycleDigest(console);
        this.faults = new PeerFaults(faults, side);
        this.listener = listener;
        // The first frames, before the input delay lets any input in, have no buttons on either side.
        for (int f = 0; f < delay; f++) {
            logs[0].add(0);
            logs[1].add(0);
        }
        save(0);
    }

    int present() {
        return present;
    }

    InputLog log(int s) {
        return logs[s];
    }

    /** This side's input for frame {@code local().known()}. */
    void addLocal(int input) {
        logs[side].add(input);
    }

    /**
     * The remote side's input for frame {@code frame}: taken when it is the next unknown one
     * (earlier ones are repeats, later ones wait for the gap); a simulated frame whose prediction
     * it contradicts is marked for re-simulation.
     */
    void addRemote(int frame, int input) {
        InputLog remote = logs[1 - side];
        if (frame != remote.known()) {
            return;
        }
        remote.add(input);
        if (frame < present && usedRemote[frame % RING] != (input & 0x3FF) && frame < firstWrong) {
            firstWrong = frame;
        }
    }

    /** Frames whose inputs are final and simulated with them: their digests are final. */
    int confirmed() {
        return Math.min(Math.min(present, logs[1 - side].known()), firstWrong);
    }

    /** True when frame {@code present()} may be simulated: both its inputs are there or predictable within {@code window}. */
    boolean canAdvance(int window) {
        return present < logs[side].known() && present < logs[1 - side].known() + window;
    }

    /** Re-simulates wrongly predicted frames, if any, up to the present. */
    void settle() {
        if (firstWrong >= present) {
            firstWrong = Integer.MAX_VALUE;
            return;
        }
        long t0 = System.nanoTime();
        int from = firstWrong;
        firstWrong = Integer.MAX_VALUE;
        int to = present;
        int depth = to - from;
        load(from);
        for (int f = from; f < to; f++) {
            simulate(f);
        }
        rollbacks++;
        resimulated += depth;
        deepest = Math.max(deepest, depth);
        if (listener != null) {
            listener.rolledBack(depth, System.nanoTime() - t0);
        }
    }

    /** Settles, then simulates frame {@code present()} (see {@link #canAdvance}). */
    void advance() {
        settle();
        simulate(present);
    }

    /** Simulates frame {@code f} from the current state (the state at its start) and keeps its end. */
    private void simulate(int f) {
        InputLog remote = logs[1 - side];
        int remoteInput = f < remote.known() ? remote.get(f) : remote.predict();
        usedRemote[f % RING] = remoteInput;
        int local = logs[side].get(f);
        int host = side == 0 ? local : remoteInput;
        int joiner = side == 0 ? remoteInput : local;
        final Console c = console;
        if (((host | joiner) & InputLog.POWER) != 0) {
            c.power();
        } else if (((host | joiner) & InputLog.RESET) != 0) {
            c.reset();
        }
        c.setButtons(0, host & InputLog.BUTTONS);
        c.setButtons(1, joiner & InputLog.BUTTONS);
        faults.runFrame(c);
        digests[f % RING] = digest.digest();
        present = f + 1;
        save(present);
    }

    /** The full-state digest at the end of frame {@code f} (one of the last {@link #RING}). */
    long digest(int f) {
        return digests[f % RING];
    }

    /** Keeps the current state as the start of frame {@code f}, in the ring's reused buffer. */
    private void save(int f) {
        int n = snapshots.saveToBuffer();
        int i = f % RING;
        if (slots[i] == null || slots[i].length < n) {
            slots[i] = new byte[n + 1024];
        }
        System.arraycopy(snapshots.buffer(), 0, slots[i], 0, n);
        slotLength[i] = n;
    }

    /** A copy of the snapshot of the start of frame {@code f} (one of the last {@link #RING}). */
    byte[] snapshot(int f) {
        int i = f % RING;
        return java.util.Arrays.copyOf(slots[i], slotLength[i]);
    }

    /** Loads the kept start of frame {@code f}; frames from {@code f} on are to be simulated again. */
    private void load(int f) {
        int i = f % RING;
        try {
            snapshots.load(slots[i], slotLength[i], "rollback");
        } catch (SnapshotException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        present = f;
    }

    /** Back to the start of frame {@code f} (at most {@link #RING} back), the frames after it forgotten. */
    void rewind(int f) {
        if (f < present) {
            load(f);
        }
        if (firstWrong >= present) {
            firstWrong = Integer.MAX_VALUE;
        }
    }

    /** Adopts {@code snapshot} (the host's) as the start of frame {@code f}, the present. */
    void adopt(int f, byte[] snapshot) throws SnapshotException {
        snapshots.load(snapshot, snapshot.length, "host's state");
        present = f;
        firstWrong = Integer.MAX_VALUE;
        save(f);
    }

    /** The state hash (SHA-256 of the canonical snapshot) of the current state. */
    String stateHash() {
        return snapshots.stateHash();
    }

    long rollbacks() {
        return rollbacks;
    }

    int deepest() {
        return deepest;
    }

    long resimulated() {
        return resimulated;
    }

    List<FaultSpec> faults() {
        return faults.specs();
    }
}
