package lockstep.nes.ppu;

import lockstep.nes.state.StateVisitor;

/**
 * PPUDATA ($2007): the read buffer, the data state machine that a CPU read starts, the window in
 * which a further read is ignored, and v's step after an access.
 *
 * <p>A CPU read returns the old buffer and starts the state machine: it sets its address up one
 * dot after the first PPU clock that follows the read, idles a dot, then reads; that read loads
 * the buffer and steps v. Outside rendering the model does all of it at the access (a second
 * read within {@link #IGNORE_DOTS} dots is ignored, so no program sees the difference). During
 * rendering the fetches own the bus, each in two dots: on the odd (address) dot the PPU drives
 * the address and the external octal latch captures its low byte; on the even (read) dot it
 * reads with its high address lines and the latched low byte. So the state machine's read,
 * {@link #READ_DOTS} dots after the dot the CPU read is serviced on, takes what the rendering
 * fetch brings: on a read dot, exactly the byte that fetch reads. The v step is a coarse X and
 * a Y increment.
 *
 * <p>The port waits as a register effect: the runner's batches stop while {@link #readIn} is
 * set, so its read always happens in the dot path, at the start of its dot (before that dot's
 * fetch, whose byte the dot path reads on its first dot). While it waits it keeps the byte of
 * each rendering fetch ({@link #lines}, from {@link RenderBus#data}).
 */
final class DataPort {
    /** Dots from the one a CPU read is serviced on to the state machine's read dot. */
    static final int READ_DOTS = 5;
    /** Dots after a counted read during which a further read is ignored (open bus, no effects). */
    static final int IGNORE_DOTS = 6;

    int readBuffer;
    /** Dots left during which a further read is ignored. */
    int ignoreRead;
    /** Dots until the state machine's read dot (it reads as that dot starts); 0 when idle. */
    int readIn;
    /** The byte on the AD lines from the last rendering fetch while the state machine waits. */
    int lines;

    private final Timing timing;
    private final Scroll scroll;
    private final PpuBus bus;
    private final RenderBus renderBus;
    private final FetchCadence cadence;
    private final PixelOutput pixels;

    DataPort(Timing timing, Scroll scroll, RenderBus renderBus, FetchCadence cadence, PixelOutput pixels) {
        this.timing = timing;
        this.scroll = scroll;
        this.bus = renderBus.bus;
        this.renderBus = renderBus;
        this.cadence = cadence;
        this.pixels = pixels;
    }

    void power() {
        readBuffer = 0;
        readIn = 0;
        lines = 0;
    }

    /** The console's reset clears the buffer (and so any read still to load it). */
    void reset() {
        readBuffer = 0;
        readIn = 0;
    }

    /** Counts down the ignored-read window over {@code k} dots. */
    void age(int k) {
        if (ignoreRead > 0) {
            ignoreRead = Math.max(0, ignoreRead - k);
        }
    }

    /**
     * A CPU read that counts: the state machine starts; during rendering ({@code rendering}) its
     * read waits for its dot (returns true: a register effect is pending), otherwise it happens
     * at once.
     */
    boolean startRead(boolean rendering, int ctrl) {
        ignoreRead = IGNORE_DOTS;
        if (rendering) {
            readIn = READ_DOTS;
            renderBus.data = -1;
        } else {
            readNow(ctrl);
        }
        return rendering;
    }

    /**
     * At the end of a dot while the state machine waits: the byte the dot's rendering fetch read,
     * if it made one, is on the AD lines.
     */
    void takeLines() {
        final int d = renderBus.data;
        if (d >= 0) {
            lines = d;
            renderBus.data = -1;
        }
    }

    /**
     * The state machine's read, as its dot starts. With rendering on ({@code rendering}) the
     * fetches own the bus: on a read (even) dot the buffer takes the byte the fetch that started
     * on the dot before read; on an address (odd) dot see {@link #readOnAddressDot}. Otherwise it
     * reads v's address.
     */
    void readDot(boolean rendering, int ctrl) {
        if (!rendering) {
            readNow(ctrl);
            return;
        }
        final int d = timing.dot;
        if ((d & 1) == 0) {
            readBuffer = lines;
        } else {
            readOnAddressDot(d, ctrl);
        }
        step(ctrl, true);
    }

    /**
     * The state machine's read on the address dot of the fetch starting on dot {@code d}: address
     * capture and read are active together. The octal latch stays transparent, but the PPU does
     * not drive AD0-AD7, so it passes the byte already on the lines (the previous fetch's,
     * {@link #lines}); the read takes the new fetch's A8-A13 with that byte as the low address,
     * and its result goes to the buffer and back through the latch, which the fetch's own read
     * on the next dot uses too (with the stepped v's A8-A13). The loop settles only where the
     * bytes reproduce themselves (all $FF); elsewhere it is analogue, and the model takes one
     * pass of it.
     */
    private void readOnAddressDot(int d, int ctrl) {
        final int value = renderBus.fetch((cadence.address(d, scroll.v, ctrl) & 0x3F00) | lines);
        readBuffer = value;
        renderBus.latchedLow = value;
    }

    private void readNow(int ctrl) {
        final int addr = scroll.v & 0x3FFF;
        readBuffer = bus.ppuRead(addr >= 0x3F00 ? addr & 0x2FFF : addr);
        step(ctrl, false);
    }

    /** A CPU write of {@code value}. */
    void write(int value, boolean rendering, int ctrl) {
        final int addr = scroll.v & 0x3FFF;
        if (addr >= 0x3F00) {
            pixels.writePalette(addr, value);
        } else if (rendering) {
            // During rendering the PPU is busy fetching; the write lands on the fetch address
            // with the address's low byte as data (as observed on hardware).
            bus.ppuWrite(addr, addr & 0xFF);
        } else {
            bus.ppuWrite(addr, value);
        }
        final int oldV = scroll.v;
        step(ctrl, rendering);
        if (rendering) {
            cadence.addressChanged(oldV, ctrl);
        }
    }

    /** After an access: v += 1 or 32, or, during rendering, a coarse X and a Y increment. */
    private void step(int ctrl, boolean rendering) {
        if (rendering) {
            scroll.incrementX();
            scroll.incrementY();
        } else {
            scroll.v = (scroll.v + ((ctrl & 0x04) != 0 ? 32 : 1)) & 0x7FFF;
            bus.ppuAddress(scroll.v & 0x3FFF);
        }
    }

    /** The state machine's entries (the buffer and the ignore window are described by the PPU in its order). */
    void machineState(StateVisitor s) {
        readIn = s.u8("dataReadIn", readIn, READ_DOTS);
        lines = s.u8("dataLines", lines);
    }
}
