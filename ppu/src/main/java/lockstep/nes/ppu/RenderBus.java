package lockstep.nes.ppu;

import lockstep.nes.state.NotState;

/**
 * The rendering fetches' way to the cartridge: straight from the board's arrays when it offers
 * plain reads ({@link PpuBus#direct}); from an A12-watching board's arrays, telling it of each
 * change of A12 ({@link PpuBus#a12Watch}); otherwise through {@link PpuBus#ppuRead}. The arrays
 * and the watch are the board's wiring, not state.
 */
final class RenderBus {
    final PpuBus bus;
    private final Timing timing;
    /** The board offers plain reads: a fetch is an array read and nothing else. */
    final boolean plain;
    /**
     * The arrays behind the reads of a board with plain reads or of an A12-watching one; null
     * when every read goes through the bus.
     */
    final byte[] chr;
    final int[] chrPage;
    final byte[] nt;
    final int[] ntPage;
    /** The A12 level an A12-watching board last saw, or null; the level itself is the board's state. */
    final int[] a12Line;
    /** The A12-watching board takes a fall and the rise after it in one call ({@link PpuBus#a12Dip}). */
    final boolean a12Dips;
    /** A board with dips hears of a batch's changes after the batch; null for other boards. */
    final A12Queue queue;
    /**
     * The byte the dot path's last fetch read (the AD lines on its read dot), until the data
     * port takes it; -1 once taken. Not state: the data port takes it at the end of the dot it
     * was read on, and the batches leave it alone (they stop while the port waits).
     */
    @NotState("taken by the data port at the end of the dot it is read on")
    int data = -1;
    /**
     * The low address byte the external latch holds for the dot path's next fetch instead of
     * the fetch's own, or -1: set and used within one dot (see {@link DataPort}).
     */
    @NotState("set and used within one dot")
    int latchedLow = -1;

    RenderBus(PpuBus bus, Timing timing) {
        this.bus = bus;
        this.timing = timing;
        final PpuBus.Direct direct = bus.direct();
        final PpuBus.A12Watch watch = direct == null ? bus.a12Watch() : null;
        plain = direct != null;
        a12Line = watch != null ? watch.line() : null;
        a12Dips = watch != null && watch.dips();
        queue = a12Dips ? new A12Queue(bus, timing, a12Line) : null;
        final PpuBus.Direct arrays = direct != null ? direct : watch != null ? watch.arrays() : null;
        chr = arrays != null ? arrays.chr() : null;
        chrPage = arrays != null ? arrays.chrPage() : null;
        nt = arrays != null ? arrays.nt() : null;
        ntPage = arrays != null ? arrays.ntPage() : null;
    }

    /**
     * A fetch of the dot path: its address's low byte from the external latch ({@link #latchedLow}
     * when the data port left one there), the byte it reads kept in {@link #data}.
     */
    int fetchDot(int addr) {
        if (latchedLow >= 0) {
            addr = (addr & 0x3F00) | latchedLow;
            latchedLow = -1;
        }
        final int value = fetch(addr);
        data = value;
        return value;
    }

    /** A rendering fetch: straight from the board's arrays when it has plain reads. */
    int fetch(int addr) {
        if (!plain) {
            return watchedFetch(addr);
        }
        return read(addr);
    }

    /**
     * A rendering fetch on dot {@code d} of a batch: a board that watches the bus may ask the
     * PPU's position during its hook, so the dot is stored first; a board with dips has the
     * change queued.
     */
    int fetchAt(int addr, int d) {
        if (!plain) {
            if (a12Dips) {
                queue.access(addr, d);
                return read(addr);
            }
            timing.dot = d;
            return watchedFetch(addr);
        }
        return fetch(addr);
    }

    /**
     * A rendering fetch for a board that watches the bus: through {@link PpuBus#ppuRead}, or for
     * an A12-watching board from its arrays, telling it first when the fetch changes A12.
     */
    private int watchedFetch(int addr) {
        final int[] line = a12Line;
        if (line == null) {
            return bus.ppuRead(addr);
        }
        if (((addr ^ line[0]) & 0x1000) != 0) {
            bus.ppuAddress(addr);
        }
        return read(addr);
    }

    /** A read from the board's arrays. */
    private int read(int addr) {
        if (addr < 0x2000) {
            return chr[chrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF;
        }
        return nt[ntPage[(addr >> 10) & 3] | (addr & 0x3FF)] & 0xFF;
    }

    /** At the start of a batch: a board with dips starts a queue. */
    void startBatch() {
        if (a12Dips) {
            queue.start();
        }
    }

    /** At the end of a batch that ends on dot {@code end}: a board with dips is told of the queue. */
    void endBatch(int end) {
        if (a12Dips) {
            queue.tell(end);
        }
    }

    /**
     * Tells an A12-watching board of the A12 changes of a tile or sprite slot (dots d+1..d+8)
     * read from its arrays: the nametable fetch {@code ntAddr} (A12 low) on d+1, the first
     * pattern fetch {@code pa} on d+5; the fetches on d+3 and d+7 repeat the level before them.
     * A board without dips was told of the fall before the reads (its banks may follow A12) and
     * is told of the rest at once; one with dips has them queued.
     */
    void a12Tile(int ntAddr, int pa, int d) {
        if (a12Dips) {
            queue.tile(ntAddr, pa, d);
            return;
        }
        if (a12Line[0] != 0) {
            timing.dot = d + 1;
            bus.ppuAddress(ntAddr);
        } else if ((pa & 0x1000) != 0) {
            timing.dot = d + 5;
            bus.ppuAddress(pa);
        }
    }

    /**
     * Before a tile's reads from an A12-watching board without dips: the nametable fetch on dot
     * d+1 takes A12 low, which may switch the board's banks, so the board is told first.
     */
    void a12Fall(int ntAddr, int d) {
        if (!a12Dips && a12Line[0] != 0) {
            timing.dot = d + 1;
            bus.ppuAddress(ntAddr);
        }
    }
}
