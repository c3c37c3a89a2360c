package lockstep.nes.ppu;

import lockstep.nes.state.NotState;

import static lockstep.nes.state.DigestKeys.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.Memory;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * The 2C02 PPU, stepped one dot at a time.
 *
 * <p>Scanlines: 0-239 visible, 240 post-render, 241-260 vertical blank, 261 pre-render.
 * Dots 0-340. The frame counter increments when scanline 241 begins (the picture is done).
 *
 * <p>The background and sprite pipelines run as the hardware runs them: nametable, attribute and
 * pattern fetches on their dots (the cartridge sees every address through {@link PpuBus}), the
 * shift registers, loopy's v/t/x/w scroll registers, sprite evaluation byte by byte into
 * secondary OAM (with the overflow bug), and sprite pattern fetches on dots 257-320.
 *
 * <p>The /NMI output is a level ({@code vblank && ctrl.7}); the CPU detects its edge at the end
 * of each CPU cycle, which gives the $2002 race and the NMI-enable behaviour of the hardware.
 */
public final class Ppu implements Digestible {
    public static final int WIDTH = 256;
    public static final int HEIGHT = 240;

    /** Frames an open-bus bit holds its value before it decays to 0 (about 600 ms). */
    static final int OPEN_BUS_DECAY_FRAMES = 36;

    /** OAM byte 2 (attributes) has no storage for bits 2-4. */
    private static final int[] OAM_MASK = {0xFF, 0xFF, 0xE3, 0xFF};

    /** Power-on palette RAM contents seen on a real console (any fixed pattern would do). */
    private static final int[] POWER_UP_PALETTE = {
        0x09, 0x01, 0x00, 0x01, 0x00, 0x02, 0x02, 0x0D, 0x08, 0x10, 0x08, 0x24, 0x00, 0x00, 0x04, 0x2C,
        0x09, 0x01, 0x34, 0x03, 0x00, 0x04, 0x00, 0x14, 0x08, 0x3A, 0x00, 0x02, 0x00, 0x20, 0x2C, 0x08,
    };

    private final PpuBus bus;
    @NotState("picture output buffer")
    private final short[] frame = new short[WIDTH * HEIGHT];
    private final Memory oam = new Memory("oam", Memory.OAM, 256);
    private final Memory secondaryOam = new Memory("secondaryOam", Memory.SECONDARY_OAM, 32);
    private final Memory palette = new Memory("palette", Memory.PALETTE, 32);

    // Counters.
    private int scanline;
    private int dot;
    private long frameCount;
    private boolean oddFrame;

    // Registers.
    private int ctrl;
    private int mask;
    private boolean vblank;
    private boolean sprite0Hit;
    private boolean spriteOverflow;
    private int oamAddr;
    /** loopy's v, t, fine x and the write toggle w. */
    private int v;
    private int t;
    private int fineX;
    private boolean w;
    private int readBuffer;
    private boolean nmiOutput;
    /** A $2002 read one dot before vblank starts: the flag is not set this frame. */
    private boolean suppressVblank;
    /** Dots left during which a further $2007 read is ignored (returns open bus, no side effects). */
    private int ignoreDataRead;
    /**
     * False while the PPU's reset flag is set: the reset input sets it and the pre-render line
     * clears it (with vblank, sprite 0 hit and overflow); meanwhile writes to $2000/$2001/$2005/
     * $2006 are ignored. Clear at a cold power-on: the Famicom and the NES-101 do not drive the
     * PPU's reset input, and software written for them sets up the PPU in the first frame.
     */
    private boolean warmedUp;

    // Open-bus decay register: value and the frame at which each bit was last refreshed.
    private int openBus;
    private final int[] openBusFrame = new int[8];

    /** Rendering as the pipeline sees it: $2001's bits 3-4 take effect one dot late. */
    private boolean renderingEnabled;
    /** A change that {@link #updateState} applies at the start of the next dot. */
    private boolean stateUpdatePending;
    /** A $2006 address waiting to be copied to v, and the dots left until it is. */
    private int pendingV;
    private int vUpdateDelay;

    // Background pipeline.
    private int ntLatch;
    private int atLatch;
    private int patternLowLatch;
    private int patternHighLatch;
    private int bgShiftLow;
    private int bgShiftHigh;
    private int atShiftLow;
    private int atShiftHigh;

    // Sprite evaluation.
    private int oamCopyBuffer;
    private int secondaryOamAddr;
    private int spriteAddrH;
    private int spriteAddrL;
    private boolean spriteInRange;
    private boolean oamCopyDone;
    private int overflowBugCounter;
    private boolean sprite0Added;
    /** Sprites found for the next line, and whether slot 0 holds OAM sprite 0. */
    private int spriteCount;
    private boolean sprite0InLine;

    // Sprite fetches for the next line.
    private int spriteY;
    private int spriteTile;
    private int spriteAttr;
    private int spriteX;
    private int spritePatternLow;
    /**
     * The next line's sprite pixels, composed from the fetched patterns: bits 0-4 the palette
     * index (0x10-0x1F, 0 = transparent), bit 5 behind background, bit 6 sprite 0 opaque here.
     * Built from fetched state, so it is visited as state; a {@link Memory} so the per-cycle
     * digest reads its incremental hash instead of 256 bytes.
     */
    private final Memory spriteLine = new Memory("spriteLine", Memory.SPRITE_LINE, WIDTH);
    /** Colours of the last two pixels composed, before greyscale/emphasis (see reapplyMask). */
    private int rawColorLast;
    private int rawColorBefore;
    private boolean spriteLineDirty;
    /**
     * The palette with greyscale and emphasis of mask {@link #shownMask} applied, for
     * {@link #visibleDots}; -1 when the palette may have changed since. A cache of the palette
     * and the mask, not state.
     */
    @NotState("cache of the 32 shown colours, rebuilt from palette and mask when shownMask says it is stale")
    private final short[] shownColor = new short[32];
    @NotState("cache key of shownColor (the mask it was built for, -1 after a palette change or load)")
    private int shownMask = -1;

    // Digest term cache of the state that changes only on events (see digestTerm()).
    @NotState("digest cache")
    private boolean digestStale = true;
    @NotState("digest cache")
    private long digestCold;
    /** Counts calls of the public mutators for the lockstep check (see {@link ChangeCounter}). Wiring. */
    private ChangeCounter changes = new ChangeCounter();

    // The board's plain read arrays (see PpuBus.direct), or null when every read goes through
    // the bus. Fixed wiring, not state.
    private final byte[] chrMem;
    private final int[] chrPage;
    private final byte[] ntMem;
    private final int[] ntPage;
    /**
     * The A12 level an A12-watching board last saw ({@link PpuBus#a12Watch}), or null, and the
     * arrays behind its reads (the plain boards' fields above stay null for it, so their fetch
     * path is untouched). Wiring; the level itself is the board's state.
     */
    private final int[] a12Line;
    /** The A12-watching board takes a fall and the rise after it in one call ({@link PpuBus#a12Dip}). */
    private final boolean a12Dips;
    private final byte[] a12Chr;
    private final int[] a12ChrPage;
    private final byte[] a12Nt;
    private final int[] a12NtPage;
    /**
     * The A12 changes a batch loop ({@link #visibleDots}, {@link #tileFetchDots},
     * {@link #hblankDots}) found for a board with dips, told to the board after the loop
     * ({@link #tellA12}) in order, each on its own dot: the board's page tables ignore A12 and
     * nothing reads its counter during a PPU run, so the board ends the batch as if told at
     * once. Its hooks (clock, M2 filter, counter) then stay out of the loops, which the JIT
     * would otherwise compile with them inlined at every call site and unswitched on their
     * tests, taking seconds per compilation on MMC3 games. Each entry packs the dot (bits 0-15),
     * the address (16-31) and for a dip the high address (32-47) and bit 48. A batch stays in
     * one line and makes at most one change per dot. Always empty between batches: not state.
     */
    @NotState("A12 changes of a batch loop in progress; empty between batches")
    private final long[] a12Queue = new long[341];
    @NotState("A12 changes of a batch loop in progress; 0 between batches")
    private int a12Queued;
    /** In a batch loop of a board with dips: A12 as the board will have seen it once told of the queue. */
    @NotState("A12 level of a batch loop in progress (the board's, once told)")
    private int a12Level;
    /** The palette's live bytes, for reads on the hot path (writes go through the Memory). */
    private final byte[] paletteRam = palette.array();
    /** OAM's and secondary OAM's live bytes, for reads in sprite evaluation. */
    private final byte[] oamBytes = oam.array();
    private final byte[] secondaryOamBytes = secondaryOam.array();

    public Ppu(PpuBus bus) {
        this.bus = bus;
        PpuBus.Direct direct = bus.direct();
        final PpuBus.A12Watch watch = direct == null ? bus.a12Watch() : null;
        a12Line = watch != null ? watch.line() : null;
        a12Dips = watch != null && watch.dips();
        final PpuBus.Direct arrays = watch != null ? watch.arrays() : null;
        a12Chr = arrays != null ? arrays.chr() : null;
        a12ChrPage = arrays != null ? arrays.chrPage() : null;
        a12Nt = arrays != null ? arrays.nt() : null;
        a12NtPage = arrays != null ? arrays.ntPage() : null;
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

    /**
     * A rendering fetch on dot {@code d} of a batch loop ({@link #visibleDots}, {@link #fetchDots},
     * {@link #hblankDots}): a board that watches the bus may ask the PPU's position
     * ({@link #scanline}, {@link #dot}) during its hook, so the dot is stored first.
     */
    private int fetchAt(int addr, int d) {
        if (chrMem == null) {
            if (a12Dips) {
                return queuedFetch(addr, d);
            }
            dot = d;
            return watchedFetch(addr);
        }
        return fetch(addr);
    }

    /** {@link #watchedFetch} in a batch loop of a board with dips: an A12 change is queued ({@link #a12Queue}). */
    private int queuedFetch(int addr, int d) {
        if (((addr ^ a12Level) & 0x1000) != 0) {
            a12Level = addr & 0x1000;
            a12Queue[a12Queued++] = d | (long) addr << 16;
        }
        if (addr < 0x2000) {
            return a12Chr[a12ChrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF;
        }
        return a12Nt[a12NtPage[(addr >> 10) & 3] | (addr & 0x3FF)] & 0xFF;
    }

    /** At the start of a batch loop: the queue's A12 level is the board's. */
    private void startA12Queue() {
        if (a12Dips) {
            a12Level = a12Line[0];
        }
    }

    /**
     * Tells the board of the queued A12 changes ({@link #a12Queue}), each with the PPU on its
     * dot, and leaves the PPU on dot {@code end}.
     */
    private void tellA12(int end) {
        final long[] queue = a12Queue;
        final int n = a12Queued;
        for (int i = 0; i < n; i++) {
            final long e = queue[i];
            dot = (int) e & 0xFFFF;
            final int addr = (int) (e >>> 16) & 0xFFFF;
            if ((e & (1L << 48)) != 0) {
                bus.a12Dip(addr, (int) (e >>> 32) & 0xFFFF, 4);
            } else {
                bus.ppuAddress(addr);
            }
        }
        a12Queued = 0;
        dot = end;
    }

    /** A rendering fetch: straight from the board's arrays when it has plain reads. */
    private int fetch(int addr) {
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
     * A rendering fetch for a board that watches the bus: through {@link PpuBus#ppuRead}, or for
     * an A12-watching board ({@link PpuBus#a12Watch}) from its arrays, telling it first
     * ({@link PpuBus#ppuAddress}) when the fetch changes A12.
     */
    private int watchedFetch(int addr) {
        final int[] line = a12Line;
        if (line == null) {
            return bus.ppuRead(addr);
        }
        if (((addr ^ line[0]) & 0x1000) != 0) {
            bus.ppuAddress(addr);
        }
        if (addr < 0x2000) {
            return a12Chr[a12ChrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF;
        }
        return a12Nt[a12NtPage[(addr >> 10) & 3] | (addr & 0x3FF)] & 0xFF;
    }

    /**
     * Tells an A12-watching board of the A12 changes of a tile or sprite slot (dots d+1..d+8)
     * read from its arrays: a nametable fetch ({@code ntAddr}, A12 low) on dot d+1, the first
     * pattern fetch ({@code pa}) on d+5; the fetches on d+3 and d+7 repeat the level before
     * them. A board without dips was told of the fall before the reads (its banks may follow
     * A12) and is told of the rest at once; one with dips hears of a fall and the rise after it
     * in one call, queued with its other changes ({@link #a12Queue}).
     */
    private void a12Tile(int[] a12, int ntAddr, int pa, int d) {
        if (a12Dips) {
            // Queued (see a12Queue): a dip, a fall, a rise, or nothing.
            final long[] queue = a12Queue;
            if (a12Level != 0) {
                if ((pa & 0x1000) != 0) {
                    queue[a12Queued++] = (d + 1) | (long) ntAddr << 16 | (long) pa << 32 | 1L << 48;
                } else {
                    queue[a12Queued++] = (d + 1) | (long) ntAddr << 16;
                    a12Level = 0;
                }
            } else if ((pa & 0x1000) != 0) {
                queue[a12Queued++] = (d + 5) | (long) pa << 16;
                a12Level = 0x1000;
            }
            return;
        }
        if (a12[0] != 0) {
            dot = d + 1;
            bus.ppuAddress(ntAddr);
        } else if ((pa & 0x1000) != 0) {
            dot = d + 5;
            bus.ppuAddress(pa);
        }
    }

    /**
     * The address of a tile's fetch on its odd dot {@code phase} (1, 3, 5, 7): nametable,
     * attribute, pattern low, pattern high. The dot-by-dot paths make all four through one
     * call site, so a bus-watching board's hook, which the JIT inlines at every site, is
     * compiled once per loop instead of four times.
     */
    private static int tileFetchAddress(int phase, int vv, int nt, int bgTable) {
        return switch (phase) {
            case 1 -> 0x2000 | (vv & 0x0FFF);
            case 3 -> 0x23C0 | (vv & 0x0C00) | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07);
            case 5 -> bgTable | (nt << 4) | ((vv >> 12) & 7);
            default -> bgTable | (nt << 4) | ((vv >> 12) & 7) | 8;
        };
    }

    /** Counts this PPU's changes in {@code counter} (see {@link ChangeCounter}). */
    public void trackChanges(ChangeCounter counter) {
        changes = counter;
    }

    public void power() {
        changes.bump();
        digestStale = true;
        scanline = 0;
        dot = 0;
        frameCount = 0;
        oddFrame = false;
        ctrl = 0;
        mask = 0;
        vblank = false;
        sprite0Hit = false;
        spriteOverflow = false;
        oamAddr = 0;
        v = 0;
        t = 0;
        fineX = 0;
        w = false;
        readBuffer = 0;
        suppressVblank = false;
        warmedUp = true;
        openBus = 0;
        java.util.Arrays.fill(openBusFrame, 0);
        renderingEnabled = false;
        stateUpdatePending = false;
        pendingV = 0;
        vUpdateDelay = 0;
        ntLatch = atLatch = patternLowLatch = patternHighLatch = 0;
        bgShiftLow = bgShiftHigh = atShiftLow = atShiftHigh = 0;
        oamCopyBuffer = 0;
        secondaryOamAddr = 0;
        spriteAddrH = spriteAddrL = 0;
        spriteInRange = false;
        oamCopyDone = false;
        overflowBugCounter = 0;
        sprite0Added = false;
        spriteCount = 0;
        sprite0InLine = false;
        spriteY = spriteTile = spriteAttr = spriteX = spritePatternLow = 0;
        spriteLine.fill(0);
        spriteLineDirty = false;
        rawColorLast = rawColorBefore = 0;
        oam.fill(0);
        secondaryOam.fill(0xFF);
        for (int i = 0; i < 32; i++) {
            palette.write(i, POWER_UP_PALETTE[i]);
        }
        shownMask = -1;
        java.util.Arrays.fill(frame, (short) 0);
        updateNmi();
    }

    /** The console's reset line: clears $2000, $2001, the scroll latches, w and the read buffer. */
    public void reset() {
        changes.bump();
        digestStale = true;
        ctrl = 0;
        mask = 0;
        t = 0;
        fineX = 0;
        w = false;
        readBuffer = 0;
        oddFrame = false;
        warmedUp = false;
        stateUpdatePending = true;
        updateNmi();
    }

    // ------------------------------------------------------------------------------------------
    // The dot clock.

    /** SPREAD[b] has bit j of b at bit 4j: a pattern byte as the low bits of 8 nibbles. */
    private static final int[] SPREAD = new int[256];

    static {
        for (int b = 0; b < 256; b++) {
            int spread = 0;
            for (int j = 0; j < 8; j++) {
                spread |= ((b >> j) & 1) << (4 * j);
            }
            SPREAD[b] = spread;
        }
    }

    /** Eight bytes of the sprite line at once: a tile with no sprite pixel reads 0. */
    private static final VarHandle SPRITE_BYTES =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The fewest visible dots worth running through {@link #visibleDots}. */
    private static final int BATCH_MIN = 8;

    /** Dots in a frame without the odd-frame skip. */
    private static final int FRAME_DOTS = 262 * 341;

    /** Advances {@code n} dots: the same as {@code n} calls of {@link #step}, with fast paths. */
    public void run(int n) {
        changes.bump();
        while (n > 0) {
            final int d = dot;
            final int line = scanline;
            // The batch loops load and store a few dozen fields: they pay from about 8 dots (the
            // 1-2 dots of a board that makes the console step the PPU eagerly go dot by dot). Every
            // batch runs only while no register effect is pending (updateState would act on the
            // next dot) and stays within one line, so the line's events stay in step().
            if (!stateUpdatePending) {
                if (line < 240) {
                    if (renderingEnabled) {
                        if (d < 256) {
                            final int k = Math.min(n, 256 - d);
                            if (k >= BATCH_MIN) {
                                visibleDots(k);
                                n -= k;
                                continue;
                            }
                        } else if (d < 340 && n >= BATCH_MIN) {
                            final int k = Math.min(n, 340 - d);
                            hblankDots(k, true);
                            n -= k;
                            continue;
                        }
                    } else if (d < 340) {
                        final int k = Math.min(n, 340 - d);
                        backdropDots(k);
                        n -= k;
                        continue;
                    }
                } else if (line < 261) {
                    if ((line > 241 || line == 240 || d >= 1) && d < 340) {
                        // Post-render and vertical blank after its first dot: nothing happens but the count.
                        final int k = Math.min(n, 340 - d);
                        idleDots(k);
                        n -= k;
                        continue;
                    }
                } else if (d >= 1) {
                    // The pre-render line after its flag-clearing first dot. Its dot 339 (the
                    // odd-frame skip) and 340 stay in step().
                    if (!renderingEnabled) {
                        if (d < 340) {
                            final int k = Math.min(n, 340 - d);
                            idleDots(k);
                            n -= k;
                            continue;
                        }
                    } else if (d < 338 && n >= BATCH_MIN) {
                        if (d < 256) {
                            final int k = Math.min(n, 256 - d);
                            fetchDots(k);
                            n -= k;
                        } else {
                            final int k = Math.min(n, 338 - d);
                            hblankDots(k, false);
                            n -= k;
                        }
                        continue;
                    }
                }
            }
            stepDot();
            n--;
        }
    }

    /** Counts down the ignored-$2007-read window for a batch of {@code k} dots. */
    private void ageDataRead(int k) {
        if (ignoreDataRead > 0) {
            ignoreDataRead = Math.max(0, ignoreDataRead - k);
            digestStale = true;
        }
    }

    /** {@code k} dots in which nothing happens but the count (within one line, before dot 340). */
    private void idleDots(int k) {
        ageDataRead(k);
        dot += k;
    }

    /**
     * Dots from now until the next one that changes what the CPU side sees without a register
     * access: the frame counter (241, 0), vertical blank set (241, 1) or cleared (261, 1). May be
     * one early (the odd-frame skip is assumed), never late; at least 1.
     */
    public int dotsToEvent() {
        final int pos = scanline * 341 + dot;
        int best = Integer.MAX_VALUE;
        for (int target : EVENTS) {
            int dist = target - pos;
            if (dist <= 0) {
                dist += FRAME_DOTS;
            }
            best = Math.min(best, dist);
        }
        if (scanline == 261 && dot >= 1 && best > 1) {
            best--;
        }
        return best;
    }

    private static final int[] EVENTS = {241 * 341, 241 * 341 + 1, 261 * 341 + 1};

    /** Advances one dot. */
    public void step() {
        changes.bump();
        stepDot();
    }

    private void stepDot() {
        if (ignoreDataRead > 0) {
            ignoreDataRead--;
            digestStale = true;
        }
        if (dot < 340) {
            dot++;
        } else {
            dot = 0;
            nextScanline();
        }
        final int line = scanline;
        final boolean visible = line < 240;
        if (visible || line == 261) {
            if (!visible && dot == 1) {
                digestStale = true;
                vblank = false;
                sprite0Hit = false;
                spriteOverflow = false;
                warmedUp = true;
                updateNmi();
            }
            // One renderDot call site for both kinds of rendering line (the JIT inlines a
            // bus-watching board's hooks into each).
            if (renderingEnabled) {
                renderDot(visible);
                if (!visible && dot == 339 && oddFrame) {
                    // Odd frames skip the last dot of the pre-render line when rendering is on.
                    dot = 340;
                }
            } else if (visible && dot >= 1 && dot <= 256) {
                drawBackdrop(dot - 1);
            }
        } else if (line == 241 && dot == 1) {
            digestStale = true;
            if (!suppressVblank) {
                vblank = true;
                updateNmi();
            }
            suppressVblank = false;
        }
        if (stateUpdatePending) {
            digestStale = true;
            // Register effects that lag: rendering on/off is seen from the second dot after the
            // $2001 write, and v takes a $2006 address 3 dots after the write.
            updateState();
        }
    }

    private void nextScanline() {
        digestStale = true;
        if (++scanline > 261) {
            scanline = 0;
            oddFrame = !oddFrame;
        } else if (scanline == 241) {
            frameCount++;
        }
    }

    private void updateState() {
        stateUpdatePending = false;
        renderingEnabled = (mask & 0x18) != 0;
        if (vUpdateDelay > 0) {
            if (--vUpdateDelay == 0) {
                v = pendingV;
                if (!renderingNow()) {
                    bus.ppuAddress(v & 0x3FFF);
                }
            } else {
                stateUpdatePending = true;
            }
        }
    }

    private void updateNmi() {
        nmiOutput = vblank && (ctrl & 0x80) != 0;
    }

    private void renderDot(boolean visible) {
        final int d = dot;
        if (d == 0) {
            // Idle dot. After a rendered line the bus already shows the pattern address that
            // dot 5 will read (computed from dot 339's fetch): A12 does not stay low from
            // dot 337 to dot 5 when backgrounds use $1000.
            if (visible) {
                bus.ppuAddress(bgPatternAddress());
            }
            return;
        }
        if (d <= 256 || (d > 320 && d <= 336)) {
            // Dots 1-256 and 321-336 share one backgroundDot call site.
            backgroundDot(d);
            if (d <= 256) {
                if (visible) {
                    drawPixel(d - 1);
                    evaluateSprites(d);
                }
                if (d == 256) {
                    incrementY();
                }
            }
        } else if (d <= 320) {
            if (d == 257) {
                // Horizontal copy t -> v.
                v = (v & ~0x041F) | (t & 0x041F);
                startSpriteFetches(visible);
            }
            oamAddr = 0;
            spriteFetchDot(d);
            if (!visible && d >= 280 && d <= 304) {
                // Vertical copy t -> v on the pre-render line.
                v = (v & ~0x7BE0) | (t & 0x7BE0);
            }
        } else {
            if (d == 337) {
                shiftBackground();
                reloadBackground();
            }
            if ((d & 1) != 0) {
                // Two unused nametable fetches (dots 337 and 339).
                ntLatch = fetch(0x2000 | (v & 0x0FFF));
            }
        }
    }

    /**
     * Dots {@code dot+1 .. dot+k} (within 1..340) of a visible line with rendering off and no
     * register effect pending: the backdrop (or the palette entry v points at) on dots 1-256.
     */
    private void backdropDots(int k) {
        ageDataRead(k);
        final int from = dot + 1;
        final int to = Math.min(dot + k, 256);
        dot += k;
        if (from > to) {
            return;
        }
        final int vv = v;
        final int m = mask;
        final int color = paletteRam[(vv & 0x3F00) == 0x3F00 ? vv & 0x1F : 0] & 0xFF;
        final short pixel = (short) ((color & ((m & 0x01) != 0 ? 0x30 : 0x3F)) | ((m & 0xE0) << 1));
        final int row = scanline << 8;
        java.util.Arrays.fill(frame, row + from - 1, row + to, pixel);
        rawColorBefore = to > from ? color : rawColorLast;
        rawColorLast = color;
    }

    /**
     * Dots {@code dot+1 .. dot+k} of a visible line with rendering on, all within 1..256, with no
     * register effect pending: exactly what {@code k} calls of {@link #step} do, with the
     * background pipeline and the pixel in locals.
     */
    private void visibleDots(int k) {
        ageDataRead(k);
        startA12Queue();
        int vv = v;
        int lo = bgShiftLow;
        int hi = bgShiftHigh;
        int al = atShiftLow;
        int ah = atShiftHigh;
        int nt = ntLatch;
        int at = atLatch;
        int pl = patternLowLatch;
        int ph = patternHighLatch;
        int last = rawColorLast;
        int before = rawColorBefore;
        // The palette indexes of the last two pixels of the last whole tile composed (before
        // << 5 | last), their colours looked up once after the loop; -1 when none is pending.
        int tail = -1;
        boolean hit = sprite0Hit;
        final int m = mask;
        final int bit = 15 - fineX;
        final int bgTable = (ctrl & 0x10) << 8;
        final boolean bgOn = (m & 0x08) != 0;
        final int bgFrom = (m & 0x02) != 0 ? 0 : 8;
        final boolean spOn = (m & 0x10) != 0;
        final int spFrom = (m & 0x04) != 0 ? 0 : 8;
        final boolean sprites = spriteLineDirty;
        final byte[] line = spriteLine.array(); // read-only here: writes go through the Memory
        final byte[] pal = paletteRam;
        final short[] out = frame;
        final int row = scanline << 8;
        final int emphasis = (m & 0xE0) << 1;
        final int grey = (m & 0x01) != 0 ? 0x30 : 0x3F;
        final boolean spritesOn = sprites && spOn;
        // The board's arrays: a plain board's, or an A12-watching one's (told of A12 changes).
        final int[] a12 = a12Line;
        final byte[] chr = a12 != null ? a12Chr : chrMem;
        final int[] chrPg = a12 != null ? a12ChrPage : chrPage;
        final byte[] ntm = a12 != null ? a12Nt : ntMem;
        final int[] ntPg = a12 != null ? a12NtPage : ntPage;
        int d = dot;
        final int first = d + 1;
        final int end = d + k;
        // The 32 colours as they leave the PPU (greyscale and emphasis applied), for the whole
        // tiles, if the batch has one.
        final short[] shown = shownColor;
        if (shownMask != m && ((d + 7) & ~7) + 8 <= end) {
            for (int i = 0; i < 32; i++) {
                shown[i] = (short) ((pal[i] & grey) | emphasis);
            }
            shownMask = m;
        }
        while (d < end) {
            if ((d & 7) == 0 && end - d >= 8) {
                // A whole tile, dots d+1..d+8: the reload on its first dot, the fetches on theirs,
                // then its 8 pixels from the registers as reloaded (pixel i reads bit 15-fineX-i
                // of them after the reload and i shifts), and the 7 shifts of dots d+2..d+8.
                if (d != 0) {
                    lo <<= 1;
                    hi <<= 1;
                    al <<= 1;
                    ah <<= 1;
                }
                lo = (lo & 0xFF00) | pl;
                hi = (hi & 0xFF00) | ph;
                al = (al & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                ah = (ah & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                final int a;
                if (chr != null) {
                    // Plain reads: the nametable byte and its attribute share a page, the two
                    // pattern planes share one too. An A12-watching board is told when the
                    // nametable fetch (dot d+1, A12 low) or the first pattern fetch (d+5) changes
                    // A12; the attribute fetch (d+3) and the second pattern fetch (d+7) repeat
                    // the level before them. (a12Dips is tested first so that its branch, never
                    // taken for a board with dips, has a profile and the JIT drops the call.)
                    if (a12 != null && !a12Dips && a12[0] != 0) {
                        dot = d + 1;
                        bus.ppuAddress(0x2000 | (vv & 0x0FFF));
                    }
                    final int ntBase = ntPg[(vv >> 10) & 3];
                    nt = ntm[ntBase | (vv & 0x3FF)] & 0xFF;
                    a = ntm[ntBase | 0x3C0 | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07)] & 0xFF;
                    final int pa = bgTable | (nt << 4) | ((vv >> 12) & 7);
                    if (a12 != null) {
                        a12Tile(a12, 0x2000 | (vv & 0x0FFF), pa, d);
                    }
                    final int pb = chrPg[pa >> 10] | (pa & 0x3FF);
                    pl = chr[pb] & 0xFF;
                    ph = chr[pb | 8] & 0xFF;
                } else {
                    nt = fetchAt(0x2000 | (vv & 0x0FFF), d + 1);
                    a = fetchAt(0x23C0 | (vv & 0x0C00) | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07), d + 3);
                    pl = fetchAt(bgTable | (nt << 4) | ((vv >> 12) & 7), d + 5);
                    ph = fetchAt(bgTable | (nt << 4) | ((vv >> 12) & 7) | 8, d + 7);
                }
                at = (a >> (((vv >> 4) & 4) | (vv & 2))) & 3;
                vv = incrementX(vv);
                if (d == 248) {
                    vv = incrementY(vv);
                }
                final int x0 = d;
                int pixels = 0;
                if (bgOn && x0 >= bgFrom) {
                    final int shift = bit - 7;
                    final int planes = SPREAD[(lo >> shift) & 0xFF] | (SPREAD[(hi >> shift) & 0xFF] << 1);
                    if (planes != 0) {
                        pixels = planes | (SPREAD[(al >> shift) & 0xFF] << 2) | (SPREAD[(ah >> shift) & 0xFF] << 3);
                        // A pixel whose pattern bits are 0 is the backdrop, whatever its attribute.
                        pixels &= ((planes | (planes >>> 1)) & 0x11111111) * 0xF;
                    }
                }
                final int o = row | x0;
                if (spritesOn && x0 + 8 > spFrom && (long) SPRITE_BYTES.get(line, x0) != 0) {
                    int prevIndex = 0;
                    int lastIndex = 0;
                    for (int i = 0; i < 8; i++) {
                        final int x = x0 + i;
                        int index = (pixels >>> (28 - 4 * i)) & 0xF;
                        final int sp = line[x];
                        if (sp != 0 && x >= spFrom) {
                            if ((sp & 0x40) != 0 && index != 0 && x != 255) {
                                hit = true;
                            }
                            if ((sp & 0x1F) != 0 && (index == 0 || (sp & 0x20) == 0)) {
                                index = sp & 0x1F;
                            }
                        }
                        out[o + i] = shown[index];
                        prevIndex = lastIndex;
                        lastIndex = index;
                    }
                    tail = (prevIndex << 5) | lastIndex;
                } else if (pixels == 0) {
                    // Eight backdrop pixels (a blank row of a tile, or no background here).
                    final short backdrop = shown[0];
                    for (int i = 0; i < 8; i++) {
                        out[o + i] = backdrop;
                    }
                    tail = 0;
                } else {
                    for (int i = 0; i < 8; i++) {
                        out[o + i] = shown[(pixels >>> (28 - 4 * i)) & 0xF];
                    }
                    tail = ((pixels & 0xF0) << 1) | (pixels & 0xF);
                }
                lo <<= 7;
                hi <<= 7;
                al <<= 7;
                ah <<= 7;
                d += 8;
                continue;
            }
            d++;
            if (d >= 2) {
                lo <<= 1;
                hi <<= 1;
                al <<= 1;
                ah <<= 1;
            }
            final int phase = d & 7;
            if ((phase & 1) != 0) {
                if (phase == 1) {
                    lo = (lo & 0xFF00) | pl;
                    hi = (hi & 0xFF00) | ph;
                    al = (al & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                    ah = (ah & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                }
                // One call site for the tile's four fetches (see tileFetchAddress).
                final int value = fetchAt(tileFetchAddress(phase, vv, nt, bgTable), d);
                switch (phase) {
                    case 1 -> nt = value;
                    case 3 -> at = (value >> (((vv >> 4) & 4) | (vv & 2))) & 3;
                    case 5 -> pl = value;
                    default -> ph = value;
                }
            } else if (phase == 0) {
                vv = incrementX(vv);
            }
            final int x = d - 1;
            int bg = 0;
            if (bgOn && x >= bgFrom) {
                bg = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                if (bg != 0) {
                    bg |= (((al >> bit) & 1) << 2) | (((ah >> bit) & 1) << 3);
                }
            }
            int index = bg;
            if (sprites) {
                final int sp = line[x];
                if (sp != 0 && spOn && x >= spFrom) {
                    if ((sp & 0x40) != 0 && bg != 0 && x != 255) {
                        hit = true;
                    }
                    if ((sp & 0x1F) != 0 && (bg == 0 || (sp & 0x20) == 0)) {
                        index = sp & 0x1F;
                    }
                }
            }
            final int color = pal[(index & 3) == 0 ? 0 : index] & 0xFF;
            if (tail >= 0) {
                last = pal[tail & 0x1F] & 0xFF;
                tail = -1;
            }
            before = last;
            last = color;
            out[row | x] = (short) ((color & grey) | emphasis);
            if (d == 256) {
                vv = incrementY(vv);
            }
        }
        if (tail >= 0) {
            before = pal[tail >> 5] & 0xFF;
            last = pal[tail & 0x1F] & 0xFF;
        }
        if (a12Queued != 0) {
            tellA12(d);
        }
        // Sprite evaluation touches nothing the background or the pixels use: run it after them.
        evaluateDots(first, d);
        dot = d;
        v = vv;
        bgShiftLow = lo;
        bgShiftHigh = hi;
        atShiftLow = al;
        atShiftHigh = ah;
        ntLatch = nt;
        atLatch = at;
        patternLowLatch = pl;
        patternHighLatch = ph;
        rawColorLast = last;
        rawColorBefore = before;
        if (hit != sprite0Hit) {
            sprite0Hit = true;
            digestStale = true;
        }
    }

    /**
     * Dots {@code dot+1 .. dot+k} of the pre-render line with rendering on, all within 2..256,
     * with no register effect pending: the background fetches and shifts of {@link #step}
     * without pixels or sprite evaluation.
     */
    private void fetchDots(int k) {
        ageDataRead(k);
        tileFetchDots(k);
    }

    /**
     * Dots {@code dot+1 .. dot+k} of background fetches and shifts with no pixels (the
     * pre-render line's 2..256, any line's 321..336), with the pipeline in locals; the caller
     * ages the $2007 window.
     */
    private void tileFetchDots(int k) {
        startA12Queue();
        int d = dot;
        final int end = d + k;
        int vv = v;
        int lo = bgShiftLow;
        int hi = bgShiftHigh;
        int al = atShiftLow;
        int ah = atShiftHigh;
        int nt = ntLatch;
        int at = atLatch;
        int pl = patternLowLatch;
        int ph = patternHighLatch;
        final int bgTable = (ctrl & 0x10) << 8;
        final int[] a12 = a12Line;
        final byte[] chr = a12 != null ? a12Chr : chrMem;
        final int[] chrPg = a12 != null ? a12ChrPage : chrPage;
        final byte[] ntm = a12 != null ? a12Nt : ntMem;
        final int[] ntPg = a12 != null ? a12NtPage : ntPage;
        while (d < end) {
            if (chr != null && (d & 7) == 0 && end - d >= 8) {
                // A whole tile, dots d+1..d+8, on a board with plain reads (an A12-watching one
                // told of changes as in visibleDots): a shift and the reload on its first dot,
                // its four fetches, seven more shifts and the coarse X step on its last dot.
                lo = ((lo << 1) & 0xFF00) | pl;
                hi = ((hi << 1) & 0xFF00) | ph;
                al = ((al << 1) & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                ah = ((ah << 1) & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                if (a12 != null && !a12Dips && a12[0] != 0) {
                    dot = d + 1;
                    bus.ppuAddress(0x2000 | (vv & 0x0FFF));
                }
                final int ntBase = ntPg[(vv >> 10) & 3];
                nt = ntm[ntBase | (vv & 0x3FF)] & 0xFF;
                final int a = ntm[ntBase | 0x3C0 | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07)] & 0xFF;
                at = (a >> (((vv >> 4) & 4) | (vv & 2))) & 3;
                final int pa = bgTable | (nt << 4) | ((vv >> 12) & 7);
                if (a12 != null) {
                    a12Tile(a12, 0x2000 | (vv & 0x0FFF), pa, d);
                }
                final int pb = chrPg[pa >> 10] | (pa & 0x3FF);
                pl = chr[pb] & 0xFF;
                ph = chr[pb | 8] & 0xFF;
                lo <<= 7;
                hi <<= 7;
                al <<= 7;
                ah <<= 7;
                d += 8;
                vv = incrementX(vv);
                if (d == 256) {
                    vv = incrementY(vv);
                }
                continue;
            }
            d++;
            lo <<= 1;
            hi <<= 1;
            al <<= 1;
            ah <<= 1;
            final int phase = d & 7;
            if ((phase & 1) != 0) {
                if (phase == 1) {
                    lo = (lo & 0xFF00) | pl;
                    hi = (hi & 0xFF00) | ph;
                    al = (al & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                    ah = (ah & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                }
                final int value = fetchAt(tileFetchAddress(phase, vv, nt, bgTable), d);
                switch (phase) {
                    case 1 -> nt = value;
                    case 3 -> at = (value >> (((vv >> 4) & 4) | (vv & 2))) & 3;
                    case 5 -> pl = value;
                    default -> ph = value;
                }
            } else if (phase == 0) {
                vv = incrementX(vv);
                if (d == 256) {
                    vv = incrementY(vv);
                }
            }
        }
        if (a12Queued != 0) {
            tellA12(d);
        }
        dot = d;
        v = vv;
        bgShiftLow = lo;
        bgShiftHigh = hi;
        atShiftLow = al;
        atShiftHigh = ah;
        ntLatch = nt;
        atLatch = at;
        patternLowLatch = pl;
        patternHighLatch = ph;
    }

    /**
     * Dots {@code dot+1 .. dot+k} within 257..340 of a visible line ({@code visible}), or within
     * 257..338 of the pre-render line, with rendering on and no register effect pending: the
     * horizontal (and on the pre-render line vertical) copy of t into v, the sprite pattern
     * fetches with OAMADDR held at 0, the first two tiles of the next line and the two unused
     * nametable fetches, with the same bus addresses in the same order as {@link #step}.
     */
    private void hblankDots(int k, boolean visible) {
        ageDataRead(k);
        startA12Queue();
        int d = dot;
        final int end = d + k;
        if (d < 320) {
            // Sprite fetches, dots 257-320: the scroll and the sprite fields stay in their fields
            // (a couple of dozen accesses a line), the loop runs without step()'s dispatch.
            final int stop = Math.min(end, 320);
            final byte[] sec = secondaryOamBytes;
            final int[] a12 = a12Line;
            final byte[] chr = a12 != null ? a12Chr : chrMem;
            final int[] chrPg = a12 != null ? a12ChrPage : chrPage;
            while (d < stop) {
                if (chr != null && ((d - 256) & 7) == 0 && stop - d >= 8) {
                    // A whole slot (dots d+1..d+8) on a board with plain reads: its two garbage
                    // nametable fetches read nothing anyone sees, and its scroll copies only
                    // need t, so the slot is its fields and its two pattern reads. An
                    // A12-watching board is told when the first garbage fetch (dot d+1, A12
                    // low) or the first pattern fetch (d+5) changes A12.
                    final int slot = (d - 256) >> 3;
                    if (slot == 0) {
                        v = (v & ~0x041F) | (t & 0x041F);
                        startSpriteFetches(visible);
                    }
                    if (a12 != null && !a12Dips && a12[0] != 0) {
                        dot = d + 1;
                        bus.ppuAddress(0x2000 | (v & 0x0FFF));
                    }
                    final int base = slot << 2;
                    spriteY = sec[base] & 0xFF;
                    spriteTile = sec[base + 1] & 0xFF;
                    spriteAttr = sec[base + 2] & 0xFF;
                    spriteX = sec[base + 3] & 0xFF;
                    final int pa = spritePatternAddress(slot);
                    if (a12 != null) {
                        a12Tile(a12, 0x2000 | (v & 0x0FFF), pa, d);
                    }
                    final int pb = chrPg[pa >> 10] | (pa & 0x3FF);
                    final int low = chr[pb] & 0xFF;
                    spritePatternLow = low;
                    if (slot < spriteCount) {
                        composeSprite(slot, low, chr[pb | 8] & 0xFF);
                    }
                    d += 8;
                    if (!visible && d >= 280 && d - 7 <= 304) {
                        v = (v & ~0x7BE0) | (t & 0x7BE0);
                    }
                    continue;
                }
                d++;
                final int p = d - 257;
                final int phase = p & 7;
                if ((phase & 1) == 0) {
                    // The slot's fetches on its even dots: two garbage nametable fetches, then the
                    // pattern planes (one call site for the four, as in visibleDots).
                    final int slot = p >> 3;
                    if (phase == 0) {
                        if (p == 0) {
                            v = (v & ~0x041F) | (t & 0x041F);
                            startSpriteFetches(visible);
                        }
                        final int base = slot << 2;
                        spriteY = sec[base] & 0xFF;
                        spriteTile = sec[base + 1] & 0xFF;
                        spriteAttr = sec[base + 2] & 0xFF;
                        spriteX = sec[base + 3] & 0xFF;
                    }
                    final int value = fetchAt(phase < 4 ? 0x2000 | (v & 0x0FFF)
                            : spritePatternAddress(slot) | (phase == 6 ? 8 : 0), d);
                    if (phase == 4) {
                        spritePatternLow = value;
                    } else if (phase == 6 && slot < spriteCount) {
                        composeSprite(slot, spritePatternLow, value);
                    }
                }
                if (!visible && d >= 280 && d <= 304) {
                    v = (v & ~0x7BE0) | (t & 0x7BE0);
                }
            }
            oamAddr = 0;
        }
        if (a12Queued != 0) {
            tellA12(d);
        }
        if (d < end && d < 336) {
            // The next line's first two tiles, dots 321-336 (with a queue of their own).
            dot = d;
            tileFetchDots(Math.min(end, 336) - d);
            d = dot;
            startA12Queue();
        }
        while (d < end) {
            // Dots 337-340: one last shift and reload, and two unused nametable fetches.
            d++;
            if (d == 337) {
                shiftBackground();
                reloadBackground();
            }
            if ((d & 1) != 0) {
                ntLatch = fetchAt(0x2000 | (v & 0x0FFF), d);
            }
        }
        if (a12Queued != 0) {
            tellA12(d);
        }
        dot = d;
    }

    // ------------------------------------------------------------------------------------------
    // Background.

    private void backgroundDot(int d) {
        if (d >= 2) {
            shiftBackground();
        }
        final int phase = d & 7;
        if ((phase & 1) != 0) {
            if (phase == 1) {
                reloadBackground();
            }
            // One call site for the tile's four fetches (see tileFetchAddress).
            final int vv = v;
            final int value = fetch(tileFetchAddress(phase, vv, ntLatch, (ctrl & 0x10) << 8));
            switch (phase) {
                case 1 -> ntLatch = value;
                case 3 -> atLatch = (value >> (((vv >> 4) & 4) | (vv & 2))) & 3;
                case 5 -> patternLowLatch = value;
                default -> patternHighLatch = value;
            }
        } else if (phase == 0) {
            incrementX();
        }
    }

    private int bgPatternAddress() {
        return ((ctrl & 0x10) << 8) | (ntLatch << 4) | ((v >> 12) & 7);
    }

    private void shiftBackground() {
        bgShiftLow <<= 1;
        bgShiftHigh <<= 1;
        atShiftLow <<= 1;
        atShiftHigh <<= 1;
    }

    private void reloadBackground() {
        bgShiftLow = (bgShiftLow & 0xFF00) | patternLowLatch;
        bgShiftHigh = (bgShiftHigh & 0xFF00) | patternHighLatch;
        atShiftLow = (atShiftLow & 0xFF00) | ((atLatch & 1) != 0 ? 0xFF : 0);
        atShiftHigh = (atShiftHigh & 0xFF00) | ((atLatch & 2) != 0 ? 0xFF : 0);
    }

    private void incrementX() {
        v = incrementX(v);
    }

    private static int incrementX(int vv) {
        return (vv & 0x001F) == 31 ? (vv & ~0x001F) ^ 0x0400 : vv + 1;
    }

    private void incrementY() {
        v = incrementY(v);
    }

    private static int incrementY(int vv) {
        if ((vv & 0x7000) != 0x7000) {
            vv += 0x1000;
        } else {
            vv &= ~0x7000;
            int y = (vv & 0x03E0) >> 5;
            if (y == 29) {
                y = 0;
                vv ^= 0x0800;
            } else if (y == 31) {
                y = 0;
            } else {
                y++;
            }
            vv = (vv & ~0x03E0) | (y << 5);
        }
        return vv;
    }

    // ------------------------------------------------------------------------------------------
    // Pixels.

    private void drawPixel(int x) {
        final int m = mask;
        int bg = 0;
        if ((m & 0x08) != 0 && (x >= 8 || (m & 0x02) != 0)) {
            final int bit = 15 - fineX;
            bg = ((bgShiftLow >> bit) & 1) | (((bgShiftHigh >> bit) & 1) << 1);
            if (bg != 0) {
                bg |= (((atShiftLow >> bit) & 1) << 2) | (((atShiftHigh >> bit) & 1) << 3);
            }
        }
        int index = bg;
        if (spriteLineDirty) {
            final int sp = spriteLine.read(x);
            if (sp != 0 && (m & 0x10) != 0 && (x >= 8 || (m & 0x04) != 0)) {
                if ((sp & 0x40) != 0 && bg != 0 && x != 255 && !sprite0Hit) {
                    sprite0Hit = true;
                    digestStale = true;
                }
                if ((sp & 0x1F) != 0 && (bg == 0 || (sp & 0x20) == 0)) {
                    index = sp & 0x1F;
                }
            }
        }
        output(x, palette.read((index & 3) == 0 ? 0 : index), m);
    }

    /** Writes pixel {@code x} of the current line with greyscale and emphasis of mask {@code m}. */
    private void output(int x, int color, int m) {
        rawColorBefore = rawColorLast;
        rawColorLast = color;
        if ((m & 0x01) != 0) {
            color &= 0x30;
        }
        frame[(scanline << 8) | x] = (short) (color | ((m & 0xE0) << 1));
    }

    /**
     * Greyscale and emphasis act at the video output, two dots after a pixel is composed: a
     * $2001 write also changes the two pixels composed just before it.
     */
    private void drawBackdrop(int x) {
        final int vv = v;
        output(x, palette.read((vv & 0x3F00) == 0x3F00 ? vv & 0x1F : 0), mask);
    }

    private void reapplyMask() {
        final int d = dot;
        if (scanline >= 240 || d < 1 || d > 257) {
            return;
        }
        final int m = mask;
        final int emphasis = (m & 0xE0) << 1;
        final int grey = (m & 0x01) != 0 ? 0x30 : 0x3F;
        final int base = scanline << 8;
        // Pixel d-1 was composed on this dot, pixel d-2 on the one before.
        if (d <= 256) {
            frame[base | (d - 1)] = (short) ((rawColorLast & grey) | emphasis);
            if (d >= 2) {
                frame[base | (d - 2)] = (short) ((rawColorBefore & grey) | emphasis);
            }
        } else {
            frame[base | 255] = (short) ((rawColorLast & grey) | emphasis);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Sprite evaluation (dots 1-256 of visible lines): finds the sprites of the next line.

    private void evaluateSprites(int d) {
        if (d <= 64) {
            // Secondary OAM clear: reads return $FF, a write every other dot.
            oamCopyBuffer = 0xFF;
            if ((d & 1) == 0) {
                secondaryOam.write((d - 1) >> 1, 0xFF);
            }
            return;
        }
        if (d == 65) {
            sprite0Added = false;
            spriteInRange = false;
            secondaryOamAddr = 0;
            overflowBugCounter = 0;
            oamCopyDone = false;
            spriteAddrH = (oamAddr >> 2) & 0x3F;
            spriteAddrL = oamAddr & 3;
        }
        if ((d & 1) != 0) {
            // Odd dots read primary OAM.
            oamCopyBuffer = oam.read(oamAddr);
        } else {
            evaluationWrite();
        }
        if (d == 256) {
            sprite0InLine = sprite0Added;
            spriteCount = secondaryOamAddr >> 2;
        }
    }

    /**
     * {@link #evaluateSprites} for dots {@code from..to} (within 1..256) with the evaluation state
     * in locals (secondary OAM written through its Memory, read from its array).
     */
    private void evaluateDots(int from, int to) {
        // Secondary OAM is read from its array and written through its Memory (a few dozen
        // writes a line with the fast paths below); a long stretch of the clear is one fill and
        // one rehash.
        final byte[] sec = secondaryOamBytes;
        final Memory secondary = secondaryOam;
        int d = from;
        if (d <= 64) {
            final int end = Math.min(to, 64);
            // Even dot e writes $FF to byte e/2 - 1: bytes (first even)/2 - 1 .. end/2 - 1.
            final int firstByte = ((d + 1) >> 1) - 1;
            final int endByte = end >> 1;
            if (endByte - firstByte > 8) {
                java.util.Arrays.fill(sec, firstByte, endByte, (byte) 0xFF);
                secondary.rehash();
            } else {
                for (int i = firstByte; i < endByte; i++) {
                    secondary.write(i, 0xFF);
                }
            }
            d = end + 1;
            oamCopyBuffer = 0xFF;
            if (d > to) {
                return;
            }
        }
        final byte[] primary = oamBytes;
        final int line = scanline;
        final int height = (ctrl & 0x20) != 0 ? 16 : 8;
        int buffer = oamCopyBuffer;
        int secAddr = secondaryOamAddr;
        int h = spriteAddrH;
        int l = spriteAddrL;
        boolean inRange = spriteInRange;
        boolean done = oamCopyDone;
        int bug = overflowBugCounter;
        boolean zeroAdded = sprite0Added;
        boolean overflow = spriteOverflow;
        int addr = oamAddr;
        for (; d <= to; d++) {
            if (d == 65) {
                zeroAdded = false;
                inRange = false;
                secAddr = 0;
                bug = 0;
                done = false;
                h = (addr >> 2) & 0x3F;
                l = addr & 3;
            }
            if (done && (d & 1) == 0 && to - d >= 3) {
                // Copying is over: each even dot steps the sprite index (and, with secondary OAM
                // full, reads its byte 0), each odd dot reads OAM at the stepped address. Only
                // the state after the last dot is seen: the index after all the steps, and the
                // buffer from the last dot.
                h = (h + ((to - d) >> 1) + 1) & 0x3F;
                addr = (l & 3) | (h << 2);
                if ((to & 1) != 0) {
                    buffer = primary[addr] & 0xFF;
                } else if (secAddr >= 0x20) {
                    buffer = sec[secAddr & 0x1F] & 0xFF;
                } else {
                    buffer = primary[(l & 3) | (((h - 1) & 0x3F) << 2)] & 0xFF;
                }
                if (to == 256) {
                    sprite0InLine = zeroAdded;
                    spriteCount = secAddr >> 2;
                }
                d = to + 1;
                break;
            }
            if ((d & 1) != 0 && to - d >= 7 && !inRange && !done && secAddr < 0x20 && (secAddr & 3) == 0) {
                final int y = primary[addr] & 0xFF;
                final int r = line - y;
                if (r >= 0 && r < height) {
                    // A sprite in range with its 8 dots in this batch: Y (read at the present
                    // address) and the three bytes after it in the sprite are copied to the free
                    // slot; the buffer keeps the last byte read.
                    final int base = h << 2;
                    secondary.write(secAddr, y);
                    secondary.write(secAddr + 1, primary[base | ((l + 1) & 3)]);
                    secondary.write(secAddr + 2, primary[base | ((l + 2) & 3)]);
                    buffer = primary[base | ((l + 3) & 3)] & 0xFF;
                    secondary.write(secAddr + 3, buffer);
                    if (h == 0) {
                        zeroAdded = true;
                    }
                    secAddr += 4;
                    l = 0;
                    h = (h + 1) & 0x3F;
                    if (h == 0) {
                        done = true;
                    }
                    addr = h << 2;
                    d += 7; // the sprite's last dot
                    if (d == 256) {
                        sprite0InLine = zeroAdded;
                        spriteCount = secAddr >> 2;
                    }
                    continue;
                }
            }
            if ((d & 1) != 0 && d < to && !inRange && !done && secAddr >= 0x20) {
                // Secondary OAM full, looking for an overflow: sprites out of range step the
                // sprite and (the hardware bug) the byte index together, two dots each; each
                // even dot reads secondary OAM's byte 0 into the buffer.
                boolean skipped = false;
                while (d < to) {
                    final int r = line - (primary[addr] & 0xFF);
                    if (r >= 0 && r < height) {
                        break;
                    }
                    h = (h + 1) & 0x3F;
                    l = (l + 1) & 3;
                    addr = l | (h << 2);
                    d += 2;
                    skipped = true;
                    if (h == 0) {
                        done = true;
                        break;
                    }
                }
                if (skipped) {
                    buffer = sec[secAddr & 0x1F] & 0xFF;
                    if (d == 257) {
                        sprite0InLine = zeroAdded;
                        spriteCount = secAddr >> 2;
                    }
                    d--; // d is the next dot to run
                    continue;
                }
            }
            if ((d & 1) != 0 && d < to && !inRange && !done && secAddr < 0x20) {
                // The common pairs of dots: an odd dot reads a sprite's Y, the even one writes it
                // to the free slot and, the sprite being out of range, steps to the next sprite.
                // Only the last Y written stays in the slot (and in the copy buffer).
                int y = -1;
                final int low = l & 3;
                while (d < to) {
                    final int next = primary[addr] & 0xFF;
                    final int r = line - next;
                    if (r >= 0 && r < height) {
                        break;
                    }
                    y = next;
                    h = (h + 1) & 0x3F;
                    addr = low | (h << 2);
                    d += 2;
                    if (h == 0) {
                        done = true;
                        break;
                    }
                }
                if (y >= 0) {
                    buffer = y;
                    secondary.write(secAddr, y);
                    if (d == 257) {
                        sprite0InLine = zeroAdded;
                        spriteCount = secAddr >> 2;
                    }
                    d--; // d is the next dot to run
                    continue;
                }
            }
            if ((d & 1) != 0) {
                buffer = primary[addr] & 0xFF;
            } else {
                if (done) {
                    h = (h + 1) & 0x3F;
                    if (secAddr >= 0x20) {
                        buffer = sec[secAddr & 0x1F] & 0xFF;
                    }
                } else {
                    final int r = line - buffer;
                    if (!inRange && r >= 0 && r < height) {
                        inRange = true;
                    }
                    if (secAddr < 0x20) {
                        secondary.write(secAddr, buffer);
                        if (inRange) {
                            l++;
                            secAddr++;
                            if (h == 0) {
                                zeroAdded = true;
                            }
                            if ((secAddr & 3) == 0) {
                                inRange = false;
                                l = 0;
                                h = (h + 1) & 0x3F;
                                if (h == 0) {
                                    done = true;
                                }
                            }
                        } else {
                            h = (h + 1) & 0x3F;
                            if (h == 0) {
                                done = true;
                            }
                        }
                    } else {
                        buffer = sec[secAddr & 0x1F] & 0xFF;
                        if (inRange) {
                            overflow = true;
                            l++;
                            if (l == 4) {
                                h = (h + 1) & 0x3F;
                                l = 0;
                            }
                            if (bug == 0) {
                                bug = 3;
                            } else {
                                bug--;
                                if (bug == 0) {
                                    done = true;
                                    l = 0;
                                }
                            }
                        } else {
                            h = (h + 1) & 0x3F;
                            l = (l + 1) & 3;
                            if (h == 0) {
                                done = true;
                            }
                        }
                    }
                }
                addr = (l & 3) | (h << 2);
            }
            if (d == 256) {
                sprite0InLine = zeroAdded;
                spriteCount = secAddr >> 2;
            }
        }
        oamCopyBuffer = buffer;
        secondaryOamAddr = secAddr;
        spriteAddrH = h;
        spriteAddrL = l;
        spriteInRange = inRange;
        oamCopyDone = done;
        overflowBugCounter = bug;
        sprite0Added = zeroAdded;
        if (overflow != spriteOverflow) {
            spriteOverflow = true;
            digestStale = true;
        }
        oamAddr = addr;
    }

    /** Even dots 66-256: write (or, once full, read) secondary OAM and step the OAM address. */
    private void evaluationWrite() {
        if (oamCopyDone) {
            spriteAddrH = (spriteAddrH + 1) & 0x3F;
            if (secondaryOamAddr >= 0x20) {
                oamCopyBuffer = secondaryOam.read(secondaryOamAddr & 0x1F);
            }
        } else {
            final int height = (ctrl & 0x20) != 0 ? 16 : 8;
            final int row = scanline - oamCopyBuffer;
            final boolean inRange = row >= 0 && row < height;
            if (!spriteInRange && inRange) {
                spriteInRange = true;
            }
            if (secondaryOamAddr < 0x20) {
                secondaryOam.write(secondaryOamAddr, oamCopyBuffer);
                if (spriteInRange) {
                    spriteAddrL++;
                    secondaryOamAddr++;
                    if (spriteAddrH == 0) {
                        sprite0Added = true;
                    }
                    if ((secondaryOamAddr & 3) == 0) {
                        spriteInRange = false;
                        spriteAddrL = 0;
                        spriteAddrH = (spriteAddrH + 1) & 0x3F;
                        if (spriteAddrH == 0) {
                            oamCopyDone = true;
                        }
                    }
                } else {
                    spriteAddrH = (spriteAddrH + 1) & 0x3F;
                    if (spriteAddrH == 0) {
                        oamCopyDone = true;
                    }
                }
            } else {
                // Secondary OAM is full: writes become reads, and the overflow search starts,
                // with the hardware bug that steps the byte index along with the sprite index.
                oamCopyBuffer = secondaryOam.read(secondaryOamAddr & 0x1F);
                if (spriteInRange) {
                    spriteOverflow = true;
                    digestStale = true;
                    spriteAddrL++;
                    if (spriteAddrL == 4) {
                        spriteAddrH = (spriteAddrH + 1) & 0x3F;
                        spriteAddrL = 0;
                    }
                    if (overflowBugCounter == 0) {
                        overflowBugCounter = 3;
                    } else {
                        overflowBugCounter--;
                        if (overflowBugCounter == 0) {
                            oamCopyDone = true;
                            spriteAddrL = 0;
                        }
                    }
                } else {
                    spriteAddrH = (spriteAddrH + 1) & 0x3F;
                    spriteAddrL = (spriteAddrL + 1) & 3;
                    if (spriteAddrH == 0) {
                        oamCopyDone = true;
                    }
                }
            }
        }
        oamAddr = (spriteAddrL & 3) | (spriteAddrH << 2);
    }

    // ------------------------------------------------------------------------------------------
    // Sprite fetches (dots 257-320): patterns of the next line's sprites.

    private void startSpriteFetches(boolean visible) {
        if (!visible) {
            // The pre-render line evaluates nothing: no sprites on line 0.
            spriteCount = 0;
            sprite0InLine = false;
        }
        if (spriteLineDirty) {
            spriteLine.fill(0);
            spriteLineDirty = false;
        }
    }

    private void spriteFetchDot(int d) {
        final int slot = (d - 257) >> 3;
        final int phase = (d - 257) & 7;
        if ((phase & 1) != 0) {
            return;
        }
        if (phase == 0) {
            final int base = slot << 2;
            spriteY = secondaryOam.read(base);
            spriteTile = secondaryOam.read(base + 1);
            spriteAttr = secondaryOam.read(base + 2);
            spriteX = secondaryOam.read(base + 3);
        }
        // Two garbage nametable fetches, then the pattern planes: one call site for the four.
        final int value = fetch(phase < 4 ? 0x2000 | (v & 0x0FFF) : spritePatternAddress(slot) | (phase == 6 ? 8 : 0));
        if (phase == 4) {
            spritePatternLow = value;
        } else if (phase == 6 && slot < spriteCount) {
            composeSprite(slot, spritePatternLow, value);
        }
    }

    private int spritePatternAddress(int slot) {
        if (slot >= spriteCount) {
            // Empty slots fetch tile $FF, row 0 (in 8x16 mode: bank $1000, tile $FE).
            return (ctrl & 0x20) != 0 ? 0x1FE0 : ((ctrl & 0x08) << 9) | 0x0FF0;
        }
        int row = (scanline - spriteY) & 0xFF;
        final boolean flipV = (spriteAttr & 0x80) != 0;
        if ((ctrl & 0x20) != 0) {
            row &= 15;
            if (flipV) {
                row = 15 - row;
            }
            int tile = (spriteTile & 0xFE) | (row >> 3);
            return ((spriteTile & 1) << 12) | (tile << 4) | (row & 7);
        }
        row &= 7;
        if (flipV) {
            row = 7 - row;
        }
        return ((ctrl & 0x08) << 9) | (spriteTile << 4) | row;
    }

    private void composeSprite(int slot, int low, int high) {
        if ((low | high) == 0) {
            return; // a transparent row
        }
        final int x0 = spriteX;
        final int attr = spriteAttr;
        final boolean flipH = (attr & 0x40) != 0;
        final int pal = 0x10 | ((attr & 3) << 2);
        final int behind = (attr & 0x20) != 0 ? 0x20 : 0;
        final boolean zero = slot == 0 && sprite0InLine;
        final Memory line = spriteLine;
        for (int i = 0; i < 8; i++) {
            final int x = x0 + i;
            if (x > 255) {
                break;
            }
            final int bit = flipH ? i : 7 - i;
            final int p = ((low >> bit) & 1) | (((high >> bit) & 1) << 1);
            if (p == 0) {
                continue;
            }
            int cur = line.read(x);
            if ((cur & 0x1F) == 0) {
                cur = (cur & 0x40) | pal | p | behind;
            }
            if (zero) {
                cur |= 0x40;
            }
            line.write(x, cur);
            spriteLineDirty = true;
        }
    }

    // ------------------------------------------------------------------------------------------
    // CPU interface.

    private boolean renderingNow() {
        return renderingEnabled && (scanline < 240 || scanline == 261);
    }

    /** A CPU read of register {@code reg} (0..7), with its side effects. */
    public int readRegister(int reg) {
        changes.bump();
        digestStale = true;
        switch (reg & 7) {
            case 2 -> {
                int value = statusBits() | (decayedOpenBus() & 0x1F);
                if (scanline == 241 && dot == 0) {
                    // Read one dot before the flag is set: it reads clear and is not set this frame.
                    suppressVblank = true;
                }
                vblank = false;
                w = false;
                updateNmi();
                return latch(value, 0xE0);
            }
            case 4 -> {
                return latch(readOamData(), 0xFF);
            }
            case 7 -> {
                // Two $2007 reads within a few dots (a DMA re-read, an indexed read crossing
                // $2007) count once: the second returns open bus and touches nothing.
                if (ignoreDataRead > 0) {
                    return decayedOpenBus();
                }
                ignoreDataRead = 6;
                return latch(readData(), (v & 0x3F00) == 0x3F00 ? 0x3F : 0xFF);
            }
            default -> {
                return decayedOpenBus();
            }
        }
    }

    private int statusBits() {
        return (vblank ? 0x80 : 0) | (sprite0Hit ? 0x40 : 0) | (spriteOverflow ? 0x20 : 0);
    }

    private int readOamData() {
        if (renderingNow()) {
            if (dot >= 257 && dot <= 320) {
                int step = (dot - 257) & 7;
                int addr = (((dot - 257) >> 3) << 2) + (step > 3 ? 3 : step);
                oamCopyBuffer = secondaryOam.read(addr);
            }
            return oamCopyBuffer;
        }
        return oam.read(oamAddr);
    }

    private int readData() {
        final int addr = v & 0x3FFF;
        int value;
        if (addr >= 0x3F00) {
            value = (readPalette(addr) & ((mask & 1) != 0 ? 0x30 : 0x3F)) | (decayedOpenBus() & 0xC0);
            readBuffer = bus.ppuRead(addr & 0x2FFF);
        } else {
            value = readBuffer;
            readBuffer = bus.ppuRead(addr);
        }
        stepAddressAfterData();
        return value;
    }

    /** Register value without side effects (for debuggers and the verifier). */
    public int peekRegister(int reg) {
        return switch (reg & 7) {
            case 2 -> statusBits() | (decayedOpenBus() & 0x1F);
            case 4 -> renderingNow() ? oamCopyBuffer : oam.read(oamAddr);
            case 7 -> (v & 0x3F00) == 0x3F00
                    ? (readPalette(v) & ((mask & 1) != 0 ? 0x30 : 0x3F)) | (decayedOpenBus() & 0xC0)
                    : readBuffer;
            default -> decayedOpenBus();
        };
    }

    public void writeRegister(int reg, int value) {
        changes.bump();
        value &= 0xFF;
        if ((reg & 7) == 4 && !digestStale) {
            // An OAMDATA write (256 a frame in an OAM DMA, each folded by a verifying stretch)
            // changes only the open bus with its bits' frames, OAM and OAMADDR: the cached part of
            // the digest term takes the difference instead of being recomputed.
            final long before = oamDataTerm();
            latch(value, 0xFF);
            writeOamData(value);
            digestCold += oamDataTerm() - before;
            digestStale = false;
            return;
        }
        digestStale = true;
        latch(value, 0xFF);
        switch (reg & 7) {
            case 0 -> {
                if (warmedUp) {
                    ctrl = value;
                    t = (t & ~0x0C00) | ((value & 3) << 10);
                    updateNmi();
                }
            }
            case 1 -> {
                if (warmedUp) {
                    int old = mask;
                    mask = value;
                    stateUpdatePending = true;
                    if (((old ^ value) & 0xE1) != 0) {
                        reapplyMask();
                    }
                }
            }
            case 3 -> oamAddr = value;
            case 4 -> writeOamData(value);
            case 5 -> {
                if (warmedUp) {
                    if (!w) {
                        t = (t & ~0x001F) | (value >> 3);
                        fineX = value & 7;
                    } else {
                        t = (t & ~0x73E0) | ((value & 7) << 12) | ((value & 0xF8) << 2);
                    }
                    w = !w;
                }
            }
            case 6 -> {
                if (warmedUp) {
                    if (!w) {
                        t = (t & 0x00FF) | ((value & 0x3F) << 8);
                    } else {
                        // v takes the new address 3 dots after the second write.
                        t = (t & 0x7F00) | value;
                        pendingV = t;
                        vUpdateDelay = 3;
                        stateUpdatePending = true;
                    }
                    w = !w;
                }
            }
            case 7 -> writeData(value);
            default -> {
            }
        }
    }

    private void writeOamData(int value) {
        if (renderingNow()) {
            // Writes during rendering do not reach OAM but bump the high 6 bits of OAMADDR.
            oamAddr = (oamAddr + 4) & 0xFF;
        } else {
            oam.write(oamAddr, value & OAM_MASK[oamAddr & 3]);
            oamAddr = (oamAddr + 1) & 0xFF;
        }
    }

    private void writeData(int value) {
        final int addr = v & 0x3FFF;
        if (addr >= 0x3F00) {
            writePalette(addr, value);
        } else if (renderingNow()) {
            // During rendering the PPU is busy fetching; the write lands on the fetch address
            // with the address's low byte as data (as observed on hardware).
            bus.ppuWrite(addr, addr & 0xFF);
        } else {
            bus.ppuWrite(addr, value);
        }
        stepAddressAfterData();
    }

    /** After a $2007 access: v += 1 or 32, or, during rendering, a coarse X and a Y increment. */
    private void stepAddressAfterData() {
        if (renderingNow()) {
            incrementX();
            incrementY();
        } else {
            v = (v + ((ctrl & 0x04) != 0 ? 32 : 1)) & 0x7FFF;
            bus.ppuAddress(v & 0x3FFF);
        }
    }

    private static int paletteIndex(int addr) {
        int i = addr & 0x1F;
        return (i & 0x13) == 0x10 ? i & 0x0F : i;
    }

    private int readPalette(int addr) {
        return palette.read(paletteIndex(addr));
    }

    private void writePalette(int addr, int value) {
        palette.write(paletteIndex(addr), value & 0x3F);
        shownMask = -1;
    }

    /** The decay register's value, with bits not refreshed for a while decayed to 0. */
    private int decayedOpenBus() {
        int value = openBus;
        if (value != 0) {
            digestStale = true;
            final int now = (int) frameCount;
            for (int i = 0; i < 8; i++) {
                if ((value & (1 << i)) != 0 && now - openBusFrame[i] > OPEN_BUS_DECAY_FRAMES) {
                    value &= ~(1 << i);
                }
            }
            openBus = value;
        }
        return value;
    }

    /**
     * Drives {@code value}'s bits selected by {@code driven} onto the PPU data bus (refreshing
     * them in the decay register); the other bits come from the decay register.
     */
    private int latch(int value, int driven) {
        digestStale = true;
        int result = (value & driven) | (decayedOpenBus() & ~driven);
        openBus = result;
        final int now = (int) frameCount;
        for (int i = 0; i < 8; i++) {
            if ((driven & (1 << i)) != 0) {
                openBusFrame[i] = now;
            }
        }
        return result;
    }

    // ------------------------------------------------------------------------------------------
    // Accessors.

    /** True while the PPU pulls /NMI low. */
    public boolean nmiOutput() {
        return nmiOutput;
    }

    public int scanline() {
        return scanline;
    }

    public int dot() {
        return dot;
    }

    public long frameCount() {
        return frameCount;
    }

    /** Whether the PPU renders: the $2001 bits as it applies them (from the second dot after the write). */
    public boolean renderingEnabled() {
        return renderingEnabled;
    }

    /**
     * True when no register effect is still to land (the rendering switch, a $2006 address): until
     * the next register access the PPU's bus traffic then follows from ctrl, whether it renders
     * and its position alone.
     */
    public boolean settled() {
        return !stateUpdatePending;
    }

    /** The picture: 256x240 9-bit values (palette index | emphasis << 6). */
    public short[] frame() {
        return frame;
    }

    /** The 256-byte primary OAM (for debuggers and tests; the caller may change it). */
    public Memory oam() {
        digestStale = true;
        return oam;
    }

    /** The 32-byte palette RAM (for debuggers and tests; the caller may change it). */
    public Memory palette() {
        digestStale = true;
        shownMask = -1;
        return palette;
    }

    /** The last value written to $2000 (after warm-up). */
    public int ctrl() {
        return ctrl;
    }

    /** The last value written to $2001 (after warm-up). */
    public int mask() {
        return mask;
    }

    /** loopy's v (current VRAM address). */
    public int vramAddress() {
        return v;
    }

    /** loopy's t (temporary VRAM address). */
    public int tempAddress() {
        return t;
    }

    public int fineX() {
        return fineX;
    }

    public boolean writeToggle() {
        return w;
    }

    public int oamAddress() {
        return oamAddr;
    }

    /**
     * This component's term of the per-cycle digest ({@code DigestTerm.of(this)}). The
     * registers, flags, open-bus decay and delayed-update state change only on register
     * accesses and at a few dots of a frame; that part is cached and recomputed after such an
     * event ({@link #digestStale}), while the dot, scroll, fetch and sprite-evaluation state and
     * the memories' hashes are packed every time.
     */
    @Override
    public long digestTerm() {
        if (digestStale) {
            digestCold = fullDigestTerm() - hotDigestTerm();
            digestStale = false;
        }
        return digestCold + hotDigestTerm();
    }

    /** The terms of the cached part of {@link #digestTerm} that an OAMDATA write changes (see {@link #writeRegister}). */
    private long oamDataTerm() {
        return W3 * (openBus & 0xFFL)
            + W4 * openBusFrame[0]
            + W5 * openBusFrame[1]
            + W6 * openBusFrame[2]
            + W7 * openBusFrame[3]
            + W8 * openBusFrame[4]
            + W9 * openBusFrame[5]
            + W10 * openBusFrame[6]
            + W11 * openBusFrame[7]
            + W19 * oam.hash();
    }

    private long hotDigestTerm() {
        return W0 * (((scanline & 0xFFFFFFFFL) << 32)
            | (dot & 0xFFFFFFFFL))
        + W2 * (((oamAddr & 0xFFL) << 32)
            | ((v & 0xFFFFL) << 16))
        + W3 * ((ignoreDataRead & 0xFFL) << 9) // the batched dot loops count it down without an event
        + W12 * (((ntLatch & 0xFFL) << 24)
            | ((atLatch & 0xFFL) << 16)
            | ((patternLowLatch & 0xFFL) << 8)
            | (patternHighLatch & 0xFFL))
        + W13 * (((bgShiftLow & 0xFFFFFFFFL) << 32)
            | (bgShiftHigh & 0xFFFFFFFFL))
        + W14 * (((atShiftLow & 0xFFFFFFFFL) << 32)
            | (atShiftHigh & 0xFFFFFFFFL))
        + W15 * (((oamCopyBuffer & 0xFFL) << 52)
            | ((secondaryOamAddr & 0xFFL) << 44)
            | ((spriteAddrH & 0xFFL) << 36)
            | ((spriteAddrL & 0xFFL) << 28)
            | (DigestKeys.b(spriteInRange) << 27)
            | (DigestKeys.b(oamCopyDone) << 26)
            | ((overflowBugCounter & 0xFFL) << 18)
            | (DigestKeys.b(sprite0Added) << 17)
            | ((spriteCount & 0xFFL) << 9)
            | (DigestKeys.b(sprite0InLine) << 8)
            | (spriteY & 0xFFL))
        + W16 * (((spriteTile & 0xFFL) << 24)
            | ((spriteAttr & 0xFFL) << 16)
            | ((spriteX & 0xFFL) << 8)
            | (spritePatternLow & 0xFFL))
        + W17 * spriteLine.hash()
        + W18 * (((rawColorLast & 0xFFL) << 9)
            | ((rawColorBefore & 0xFFL) << 1)
            | DigestKeys.b(spriteLineDirty))
        + W20 * secondaryOam.hash();
        // OAM and the palette change only through register writes, power and loads, which mark
        // the cold part stale: their hashes (W19, W21) are in it.
    }

    private long fullDigestTerm() {
        return W0 * (((scanline & 0xFFFFFFFFL) << 32)
            | (dot & 0xFFFFFFFFL))
        + W1 * frameCount
        + W2 * ((DigestKeys.b(oddFrame) << 59)
            | ((ctrl & 0xFFL) << 51)
            | ((mask & 0xFFL) << 43)
            | (DigestKeys.b(vblank) << 42)
            | (DigestKeys.b(sprite0Hit) << 41)
            | (DigestKeys.b(spriteOverflow) << 40)
            | ((oamAddr & 0xFFL) << 32)
            | ((v & 0xFFFFL) << 16)
            | (t & 0xFFFFL))
        + W3 * (((fineX & 0xFFL) << 28)
            | (DigestKeys.b(w) << 27)
            | ((readBuffer & 0xFFL) << 19)
            | (DigestKeys.b(nmiOutput) << 18)
            | (DigestKeys.b(suppressVblank) << 17)
            | ((ignoreDataRead & 0xFFL) << 9)
            | (DigestKeys.b(warmedUp) << 8)
            | (openBus & 0xFFL))
        + W4 * openBusFrame[0]
        + W5 * openBusFrame[1]
        + W6 * openBusFrame[2]
        + W7 * openBusFrame[3]
        + W8 * openBusFrame[4]
        + W9 * openBusFrame[5]
        + W10 * openBusFrame[6]
        + W11 * openBusFrame[7]
        + W12 * ((DigestKeys.b(renderingEnabled) << 57)
            | (DigestKeys.b(stateUpdatePending) << 56)
            | ((pendingV & 0xFFFFL) << 40)
            | ((vUpdateDelay & 0xFFL) << 32)
            | ((ntLatch & 0xFFL) << 24)
            | ((atLatch & 0xFFL) << 16)
            | ((patternLowLatch & 0xFFL) << 8)
            | (patternHighLatch & 0xFFL))
        + W13 * (((bgShiftLow & 0xFFFFFFFFL) << 32)
            | (bgShiftHigh & 0xFFFFFFFFL))
        + W14 * (((atShiftLow & 0xFFFFFFFFL) << 32)
            | (atShiftHigh & 0xFFFFFFFFL))
        + W15 * (((oamCopyBuffer & 0xFFL) << 52)
            | ((secondaryOamAddr & 0xFFL) << 44)
            | ((spriteAddrH & 0xFFL) << 36)
            | ((spriteAddrL & 0xFFL) << 28)
            | (DigestKeys.b(spriteInRange) << 27)
            | (DigestKeys.b(oamCopyDone) << 26)
            | ((overflowBugCounter & 0xFFL) << 18)
            | (DigestKeys.b(sprite0Added) << 17)
            | ((spriteCount & 0xFFL) << 9)
            | (DigestKeys.b(sprite0InLine) << 8)
            | (spriteY & 0xFFL))
        + W16 * (((spriteTile & 0xFFL) << 24)
            | ((spriteAttr & 0xFFL) << 16)
            | ((spriteX & 0xFFL) << 8)
            | (spritePatternLow & 0xFFL))
        + W17 * spriteLine.hash()
        + W18 * (((rawColorLast & 0xFFL) << 9)
            | ((rawColorBefore & 0xFFL) << 1)
            | DigestKeys.b(spriteLineDirty))
        + W19 * oam.hash()
        + W20 * secondaryOam.hash()
        + W21 * palette.hash();
    }

    @Override
    public void state(StateVisitor s) {
        changes.bump();
        scanline = s.i32("scanline", scanline, 0, 261);
        dot = s.i32("dot", dot, 0, 340);
        frameCount = s.i64("frameCount", frameCount, 0, Long.MAX_VALUE);
        oddFrame = s.bool("oddFrame", oddFrame);
        ctrl = s.u8("ctrl", ctrl);
        mask = s.u8("mask", mask);
        vblank = s.bool("vblank", vblank);
        sprite0Hit = s.bool("sprite0Hit", sprite0Hit);
        spriteOverflow = s.bool("spriteOverflow", spriteOverflow);
        oamAddr = s.u8("oamAddr", oamAddr);
        v = s.u16("v", v, 0x7FFF);
        t = s.u16("t", t, 0x7FFF);
        fineX = s.u8("fineX", fineX, 7);
        w = s.bool("w", w);
        readBuffer = s.u8("readBuffer", readBuffer);
        nmiOutput = s.bool("nmiOutput", nmiOutput);
        suppressVblank = s.bool("suppressVblank", suppressVblank);
        ignoreDataRead = s.u8("ignoreDataRead", ignoreDataRead, 6);
        warmedUp = s.bool("warmedUp", warmedUp);
        openBus = s.u8("openBus", openBus);
        s.ints("openBusFrame", openBusFrame, Integer.MIN_VALUE, Integer.MAX_VALUE);
        renderingEnabled = s.bool("renderingEnabled", renderingEnabled);
        stateUpdatePending = s.bool("stateUpdatePending", stateUpdatePending);
        pendingV = s.u16("pendingV", pendingV, 0x7FFF);
        vUpdateDelay = s.u8("vUpdateDelay", vUpdateDelay, 3);
        ntLatch = s.u8("ntLatch", ntLatch);
        atLatch = s.u8("atLatch", atLatch, 3);
        patternLowLatch = s.u8("patternLowLatch", patternLowLatch);
        patternHighLatch = s.u8("patternHighLatch", patternHighLatch);
        bgShiftLow = s.i32("bgShiftLow", bgShiftLow, Integer.MIN_VALUE, Integer.MAX_VALUE);
        bgShiftHigh = s.i32("bgShiftHigh", bgShiftHigh, Integer.MIN_VALUE, Integer.MAX_VALUE);
        atShiftLow = s.i32("atShiftLow", atShiftLow, Integer.MIN_VALUE, Integer.MAX_VALUE);
        atShiftHigh = s.i32("atShiftHigh", atShiftHigh, Integer.MIN_VALUE, Integer.MAX_VALUE);
        oamCopyBuffer = s.u8("oamCopyBuffer", oamCopyBuffer);
        secondaryOamAddr = s.u8("secondaryOamAddr", secondaryOamAddr, 0x20);
        spriteAddrH = s.u8("spriteAddrH", spriteAddrH, 0x3F);
        spriteAddrL = s.u8("spriteAddrL", spriteAddrL, 6);
        spriteInRange = s.bool("spriteInRange", spriteInRange);
        oamCopyDone = s.bool("oamCopyDone", oamCopyDone);
        overflowBugCounter = s.u8("overflowBugCounter", overflowBugCounter, 3);
        sprite0Added = s.bool("sprite0Added", sprite0Added);
        spriteCount = s.u8("spriteCount", spriteCount, 8);
        sprite0InLine = s.bool("sprite0InLine", sprite0InLine);
        spriteY = s.u8("spriteY", spriteY);
        spriteTile = s.u8("spriteTile", spriteTile);
        spriteAttr = s.u8("spriteAttr", spriteAttr);
        spriteX = s.u8("spriteX", spriteX);
        spritePatternLow = s.u8("spritePatternLow", spritePatternLow);
        spriteLine.state(s);
        rawColorLast = s.u8("rawColorLast", rawColorLast, 0x3F);
        rawColorBefore = s.u8("rawColorBefore", rawColorBefore, 0x3F);
        spriteLineDirty = s.bool("spriteLineDirty", spriteLineDirty);
        oam.state(s);
        secondaryOam.state(s);
        palette.state(s);
        digestStale = true;
        shownMask = -1;
        // The frame buffer is output, not state: it is rebuilt by the next frame.
    }
}
