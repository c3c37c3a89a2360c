package lockstep.nes.ppu;

/**
 * The rendering fetches' way to the cartridge: straight from the board's arrays when it offers
 * plain reads ({@link PpuBus#direct}); from an A12-watching board's arrays, telling it of each
 * change of A12 ({@link PpuBus#a12Watch}); otherwise through {@link PpuBus#ppuRead}. The arrays
 * and the watch are the board's wiring, not state.
 */
final class RenderBus {
    final PpuBus bus;
    private final Timing timing;
    /** The board's plain read arrays, or null when every read goes through the bus. */
    final byte[] chrMem;
    final int[] chrPage;
    final byte[] ntMem;
    final int[] ntPage;
    /**
     * The A12 level an A12-watching board last saw, or null, and the arrays behind its reads
     * (the plain arrays above stay null for it). The level itself is the board's state.
     */
    final int[] a12Line;
    /** The A12-watching board takes a fall and the rise after it in one call ({@link PpuBus#a12Dip}). */
    final boolean a12Dips;
    final byte[] a12Chr;
    final int[] a12ChrPage;
    final byte[] a12Nt;
    final int[] a12NtPage;
    /** A board with dips hears of a batch's changes after the batch; null for other boards. */
    final A12Queue queue;

    RenderBus(PpuBus bus, Timing timing) {
        this.bus = bus;
        this.timing = timing;
        final PpuBus.Direct direct = bus.direct();
        final PpuBus.A12Watch watch = direct == null ? bus.a12Watch() : null;
        a12Line = watch != null ? watch.line() : null;
        a12Dips = watch != null && watch.dips();
        final PpuBus.Direct arrays = watch != null ? watch.arrays() : null;
        a12Chr = arrays != null ? arrays.chr() : null;
        a12ChrPage = arrays != null ? arrays.chrPage() : null;
        a12Nt = arrays != null ? arrays.nt() : null;
        a12NtPage = arrays != null ? arrays.ntPage() : null;
        queue = a12Dips ? new A12Queue(bus, timing, a12Line) : null;
        if (direct != null) {
            chrMem = direct.chr();
            chrPage = direct.chrPage();
            ntMem = direct.nt();
            ntPage = direct.ntPage();
        } else {
            chrMem = null;
            chrPage = null;
            ntMem = null;
            ntPage = null;
        }
    }

    /** A rendering fetch: straight from the board's arrays when it has plain reads. */
    int fetch(int addr) {
        final byte[] chr = chrMem;
        if (chr == null) {
            return watchedFetch(addr);
        }
        if (addr < 0x2000) {
            return chr[chrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF;
        }
        return ntMem[ntPage[(addr >> 10) & 3] | (addr & 0x3FF)] & 0xFF;
    }

    /**
     * A rendering fetch on dot {@code d} of a batch: a board that watches the bus may ask the
     * PPU's position during its hook, so the dot is stored first; a board with dips has the
     * change queued.
     */
    int fetchAt(int addr, int d) {
        if (chrMem == null) {
            if (a12Dips) {
                queue.access(addr, d);
                return a12Read(addr);
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
        return a12Read(addr);
    }

    private int a12Read(int addr) {
        if (addr < 0x2000) {
            return a12Chr[a12ChrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF;
        }
        return a12Nt[a12NtPage[(addr >> 10) & 3] | (addr & 0x3FF)] & 0xFF;
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
