package lockstep.nes.ppu;

import lockstep.nes.state.NotState;

/**
 * The A12 changes a batch of dots makes on the bus of a board that takes dips
 * ({@link PpuBus#a12Dip}), told to the board after the batch in order, each with the PPU on its
 * own dot. The board's page tables ignore A12 and nothing reads its counter during a PPU run, so
 * the board ends the batch as if told at once (see docs/design/ppu.md on why the batch does not
 * call the board). A batch stays in one line and makes at most one change per dot; the queue is
 * empty between batches, so none of it is state.
 */
final class A12Queue {
    /** Each entry: the dot (bits 0-15), the address (16-31), for a dip the high address (32-47) and bit 48. */
    @NotState("A12 changes of a batch in progress; empty between batches")
    private final long[] entries = new long[341];
    @NotState("A12 changes of a batch in progress; 0 between batches")
    private int count;
    /** A12 as the board will have seen it once told of the queue. */
    @NotState("A12 level of a batch in progress (the board's, once told)")
    private int level;

    private final PpuBus bus;
    private final Timing timing;
    private final int[] line;

    /** A queue for {@code bus}, whose A12 level is {@code line[0]}. */
    A12Queue(PpuBus bus, Timing timing, int[] line) {
        this.bus = bus;
        this.timing = timing;
        this.line = line;
    }

    /** At the start of a batch: the queue's A12 level is the board's. */
    void start() {
        level = line[0];
    }

    /** A fetch of {@code addr} on dot {@code d}: an A12 change is queued. */
    void access(int addr, int d) {
        if (((addr ^ level) & 0x1000) != 0) {
            level = addr & 0x1000;
            entries[count++] = d | (long) addr << 16;
        }
    }

    /**
     * A tile or sprite slot (dots d+1..d+8) with its nametable (or garbage nametable) fetch
     * {@code ntAddr} (A12 low) on d+1 and its first pattern fetch {@code pa} on d+5; the fetches
     * on d+3 and d+7 repeat the level before them. A dip (a fall and the rise after it), a fall,
     * a rise, or nothing.
     */
    void tile(int ntAddr, int pa, int d) {
        if (level != 0) {
            if ((pa & 0x1000) != 0) {
                entries[count++] = (d + 1) | (long) ntAddr << 16 | (long) pa << 32 | 1L << 48;
            } else {
                entries[count++] = (d + 1) | (long) ntAddr << 16;
                level = 0;
            }
        } else if ((pa & 0x1000) != 0) {
            entries[count++] = (d + 5) | (long) pa << 16;
            level = 0x1000;
        }
    }

    /** Tells the board of the queued changes, each with the PPU on its dot, and leaves the PPU on dot {@code end}. */
    void tell(int end) {
        if (count == 0) {
            return;
        }
        final long[] queue = entries;
        final int n = count;
        for (int i = 0; i < n; i++) {
            final long e = queue[i];
            timing.dot = (int) e & 0xFFFF;
            final int addr = (int) (e >>> 16) & 0xFFFF;
            if ((e & (1L << 48)) != 0) {
                bus.a12Dip(addr, (int) (e >>> 32) & 0xFFFF, 4);
            } else {
                bus.ppuAddress(addr);
            }
        }
        count = 0;
        timing.dot = end;
    }
}
