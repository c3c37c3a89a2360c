package lockstep.nes.ppu;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The fast path of the PPU's dot-by-dot rendering ({@link Ppu#step}): stretches of dots within
 * one line with no register effect pending, with the pipelines in locals and whole tiles at a
 * time. Each batch ends in the state the same number of dot steps would, having put the same
 * addresses on the cartridge bus in the same order (RunDifferentialTest). What a batch does not
 * model (a register effect landing, the line's events) is left to the dot path: {@link Ppu#run}
 * chooses which runs.
 */
final class FastDots {
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

    private final Timing timing;
    private final Scroll scroll;
    private final Background background;
    private final SpriteEvaluation spriteEvaluation;
    private final FastSpriteEvaluation evaluation;
    private final SpriteFetch sprites;
    private final PixelOutput pixels;
    private final RenderBus bus;

    FastDots(Timing timing, Scroll scroll, Background background, SpriteEvaluation spriteEvaluation,
             SpriteFetch sprites, PixelOutput pixels, RenderBus bus) {
        this.timing = timing;
        this.scroll = scroll;
        this.background = background;
        this.spriteEvaluation = spriteEvaluation;
        this.evaluation = new FastSpriteEvaluation(spriteEvaluation);
        this.sprites = sprites;
        this.pixels = pixels;
        this.bus = bus;
    }

    /** {@code k} dots in which nothing happens but the count (within one line, before dot 340). */
    void idleDots(int k) {
        timing.dot += k;
    }

    /**
     * Dots {@code dot+1 .. dot+k} (within 1..340) of a visible line with rendering off and no
     * register effect pending: the backdrop (or the palette entry v points at) on dots 1-256.
     */
    void backdropDots(int k, int m) {
        final Timing time = timing;
        final int from = time.dot + 1;
        final int to = Math.min(time.dot + k, 256);
        time.dot += k;
        if (from > to) {
            return;
        }
        final PixelOutput px = pixels;
        final int vv = scroll.v;
        final int color = px.paletteRam[(vv & 0x3F00) == 0x3F00 ? vv & 0x1F : 0] & 0xFF;
        final short pixel = (short) ((color & ((m & 0x01) != 0 ? 0x30 : 0x3F)) | ((m & 0xE0) << 1));
        final int row = time.scanline << 8;
        if (px.drawing) {
            java.util.Arrays.fill(px.frame, row + from - 1, row + to, pixel);
        }
        px.rawColorBefore = to > from ? color : px.rawColorLast;
        px.rawColorLast = color;
    }

    /**
     * Dots {@code dot+1 .. dot+k} of a visible line with rendering on, all within 1..256, with no
     * register effect pending: exactly what {@code k} calls of {@link Ppu#step} do, with the
     * background pipeline and the pixel in locals.
     */
    void visibleDots(int k, int ctrl, int m) {
        final RenderBus rb = bus;
        rb.startBatch();
        final Background b = background;
        final PixelOutput px = pixels;
        final Timing time = timing;
        int vv = scroll.v;
        int lo = b.shiftLow;
        int hi = b.shiftHigh;
        int al = b.atShiftLow;
        int ah = b.atShiftHigh;
        int nt = b.ntLatch;
        int at = b.atLatch;
        int pl = b.patternLowLatch;
        int ph = b.patternHighLatch;
        int last = px.rawColorLast;
        int before = px.rawColorBefore;
        // The palette indexes of the last two pixels of the last whole tile composed (before
        // << 5 | last), their colours looked up once after the loop; -1 when none is pending.
        int tail = -1;
        boolean hit = px.sprite0Hit;
        final int bit = 15 - scroll.fineX;
        final int bgTable = (ctrl & 0x10) << 8;
        final boolean bgOn = (m & 0x08) != 0;
        final int bgFrom = (m & 0x02) != 0 ? 0 : 8;
        final boolean spOn = (m & 0x10) != 0;
        final int spFrom = (m & 0x04) != 0 ? 0 : 8;
        final boolean sprites = px.spriteLineDirty;
        final byte[] line = px.spriteLine.array(); // read-only here: writes go through the Memory
        final byte[] pal = px.paletteRam;
        final short[] out = px.frame;
        final boolean draw = px.drawing;
        final int scanline = time.scanline;
        final int row = scanline << 8;
        final int emphasis = (m & 0xE0) << 1;
        final int grey = (m & 0x01) != 0 ? 0x30 : 0x3F;
        final boolean spritesOn = sprites && spOn;
        // The first x of a whole tile with background (sprite) pixels to draw: 256 when none.
        final int bgStart = bgOn ? bgFrom : 256;
        final int spStart = spritesOn ? spFrom : 256;
        // The board's arrays: a plain board's, or an A12-watching one's (told of A12 changes).
        final int[] a12 = rb.a12Line;
        final byte[] chr = rb.chr;
        final int[] chrPg = rb.chrPage;
        final byte[] ntm = rb.nt;
        final int[] ntPg = rb.ntPage;
        int d = time.dot;
        final int first = d + 1;
        final int end = d + k;
        // The 32 colours as they leave the PPU (greyscale and emphasis applied), for the whole
        // tiles, if the batch has one.
        final short[] shown = px.shownColor;
        if (px.shownMask != m && ((d + 7) & ~7) + 8 <= end) {
            for (int i = 0; i < 32; i++) {
                shown[i] = (short) ((pal[i] & grey) | emphasis);
            }
            px.shownMask = m;
        }
        while (d < end) {
            if ((d & 7) == 0 && end - d >= 8) {
                // Whole tiles in a loop of their own, which keeps the part tiles' values out of
                // its registers (docs/design/performance.md, "Whole tiles in a loop of their own").
                do {
                    // A whole tile, dots d+1..d+8: the reload on its first dot, the fetches on
                    // theirs, then its 8 pixels from the registers as reloaded (pixel i reads bit
                    // 15-fineX-i of them after the reload and i shifts), and the 7 shifts of dots
                    // d+2..d+8.
                    if (d != 0) {
                        // Dot 1 neither shifts nor reloads (Background.dot).
                        lo = (lo << 1 & 0xFF00) | pl;
                        hi = (hi << 1 & 0xFF00) | ph;
                        al = (al << 1 & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                        ah = (ah << 1 & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                    }
                    final int a;
                    if (chr != null) {
                        // Plain reads: the nametable byte and its attribute share a page, the
                        // two pattern planes share one too. An A12-watching board is told when
                        // the nametable fetch (dot d+1, A12 low) or the first pattern fetch (d+5)
                        // changes A12; the attribute fetch (d+3) and the second pattern fetch
                        // (d+7) repeat the level before them (see docs/design/ppu.md on the
                        // order of the tests).
                        if (a12 != null) {
                            rb.a12Fall(0x2000 | (vv & 0x0FFF), d);
                        }
                        final int ntBase = ntPg[(vv >> 10) & 3];
                        nt = ntm[ntBase | (vv & 0x3FF)] & 0xFF;
                        a = ntm[ntBase | 0x3C0 | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07)] & 0xFF;
                        final int pa = bgTable | (nt << 4) | ((vv >> 12) & 7);
                        if (a12 != null) {
                            rb.a12Tile(0x2000 | (vv & 0x0FFF), pa, d);
                        }
                        final int pb = chrPg[pa >> 10] | (pa & 0x3FF);
                        pl = chr[pb] & 0xFF;
                        ph = chr[pb | 8] & 0xFF;
                    } else {
                        nt = rb.fetchAt(0x2000 | (vv & 0x0FFF), d + 1);
                        a = rb.fetchAt(0x23C0 | (vv & 0x0C00) | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07),
                                d + 3);
                        pl = rb.fetchAt(bgTable | (nt << 4) | ((vv >> 12) & 7), d + 5);
                        ph = rb.fetchAt(bgTable | (nt << 4) | ((vv >> 12) & 7) | 8, d + 7);
                    }
                    at = Background.attributeBits(a, vv);
                    vv = Scroll.incrementX(vv);
                    if (d == 248) {
                        vv = Scroll.incrementY(vv);
                    }
                    final int x0 = d;
                    int pixels = 0;
                    if (x0 >= bgStart) {
                        final int shift = bit - 7;
                        final int planes = SPREAD[(lo >> shift) & 0xFF]
                                | (SPREAD[(hi >> shift) & 0xFF] << 1);
                        if (planes != 0) {
                            pixels = planes | (SPREAD[(al >> shift) & 0xFF] << 2)
                                    | (SPREAD[(ah >> shift) & 0xFF] << 3);
                            // A pixel whose pattern bits are 0 is the backdrop, whatever its
                            // attribute.
                            pixels &= ((planes | (planes >>> 1)) & 0x11111111) * 0xF;
                        }
                    }
                    final int o = row | x0;
                    if (x0 + 8 > spStart && (long) SPRITE_BYTES.get(line, x0) != 0) {
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
                            if (draw) {
                                out[o + i] = shown[index];
                            }
                            prevIndex = lastIndex;
                            lastIndex = index;
                        }
                        tail = (prevIndex << 5) | lastIndex;
                    } else if (pixels == 0) {
                        // Eight backdrop pixels (a blank row of a tile, or no background here).
                        if (draw) {
                            final short backdrop = shown[0];
                            for (int i = 0; i < 8; i++) {
                                out[o + i] = backdrop;
                            }
                        }
                        tail = 0;
                    } else {
                        if (draw) {
                            for (int i = 0; i < 8; i++) {
                                out[o + i] = shown[(pixels >>> (28 - 4 * i)) & 0xF];
                            }
                        }
                        tail = ((pixels & 0xF0) << 1) | (pixels & 0xF);
                    }
                    lo = lo << 7;
                    hi = hi << 7 | 0x7F;
                    al = al << 7 | (al & 1) * 0x7F;
                    ah = ah << 7 | (ah & 1) * 0x7F;
                    d += 8;
                } while (end - d >= 8);
                continue;
            }
            // Part of a tile, dots d+1..d+n (a batch's first or last): the same steps as the
            // whole tile's, the pixels from the registers as they stand. On the tile's first dot
            // (phase 0 before it) pixel i reads bit 15-fineX-i after the reload; later in the
            // tile, pixel i reads bit 15-fineX-1-i of the registers before the dot's shift.
            final int phase0 = d & 7;
            final int n = Math.min(end - d, 8 - phase0);
            final int shift;
            final int shifts;
            if (phase0 == 0) {
                if (d != 0) {
                    lo = (lo << 1 & 0xFF00) | pl;
                    hi = (hi << 1 & 0xFF00) | ph;
                    al = (al << 1 & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                    ah = (ah << 1 & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                }
                shift = bit - 7;
                shifts = n - 1;
            } else {
                shift = bit - 8;
                shifts = n;
            }
            // The tile's fetches on its odd dots, through one call (see docs/design/ppu.md).
            for (int f = d + 1 + (phase0 & 1); f <= d + n; f += 2) {
                final int phase = f & 7;
                final int value = rb.fetchAt(Background.fetchAddress(phase, vv, nt, bgTable), f);
                switch (phase) {
                    case 1 -> nt = value;
                    case 3 -> at = Background.attributeBits(value, vv);
                    case 5 -> pl = value;
                    default -> ph = value;
                }
            }
            int pixels = 0;
            if (bgOn && d >= bgFrom) {
                final int planes = SPREAD[(lo >> shift) & 0xFF] | (SPREAD[(hi >> shift) & 0xFF] << 1);
                if (planes != 0) {
                    pixels = planes | (SPREAD[(al >> shift) & 0xFF] << 2) | (SPREAD[(ah >> shift) & 0xFF] << 3);
                    pixels &= ((planes | (planes >>> 1)) & 0x11111111) * 0xF;
                }
            }
            if (tail >= 0) {
                last = pal[tail & 0x1F] & 0xFF;
                tail = -1;
            }
            for (int i = 0; i < n; i++) {
                final int x = d + i;
                int index = (pixels >>> (28 - 4 * i)) & 0xF;
                if (sprites) {
                    final int sp = line[x];
                    if (sp != 0 && spOn && x >= spFrom) {
                        if ((sp & 0x40) != 0 && index != 0 && x != 255) {
                            hit = true;
                        }
                        if ((sp & 0x1F) != 0 && (index == 0 || (sp & 0x20) == 0)) {
                            index = sp & 0x1F;
                        }
                    }
                }
                final int color = pal[(index & 3) == 0 ? 0 : index] & 0xFF;
                before = last;
                last = color;
                if (draw) {
                    out[row | x] = (short) ((color & grey) | emphasis);
                }
            }
            if (shifts > 0) {
                final int fill = (1 << shifts) - 1;
                lo = lo << shifts;
                hi = hi << shifts | fill;
                al = al << shifts | (al & 1) * fill;
                ah = ah << shifts | (ah & 1) * fill;
            }
            d += n;
            if ((d & 7) == 0) {
                vv = Scroll.incrementX(vv);
                if (d == 256) {
                    vv = Scroll.incrementY(vv);
                }
            }
        }
        if (tail >= 0) {
            before = pal[tail >> 5] & 0xFF;
            last = pal[tail & 0x1F] & 0xFF;
        }
        rb.endBatch(d);
        // Sprite evaluation touches nothing the background or the pixels use: run it after them.
        evaluation.run(first, d, scanline, ctrl);
        time.dot = d;
        scroll.v = vv;
        b.shiftLow = lo;
        b.shiftHigh = hi;
        b.atShiftLow = al;
        b.atShiftHigh = ah;
        b.ntLatch = nt;
        b.atLatch = at;
        b.patternLowLatch = pl;
        b.patternHighLatch = ph;
        px.rawColorLast = last;
        px.rawColorBefore = before;
        px.sprite0Hit = hit;
    }

    /**
     * Dots {@code dot+1 .. dot+k} of background fetches and shifts with no pixels (the
     * pre-render line's 2..256, any line's 321..336): exactly what {@code k} dots of
     * {@link Background#dot} do, with the pipeline in locals.
     */
    void tileFetchDots(int k, int ctrl) {
        final RenderBus rb = bus;
        rb.startBatch();
        final Background b = background;
        final Timing time = timing;
        int d = time.dot;
        final int end = d + k;
        int vv = scroll.v;
        int lo = b.shiftLow;
        int hi = b.shiftHigh;
        int al = b.atShiftLow;
        int ah = b.atShiftHigh;
        int nt = b.ntLatch;
        int at = b.atLatch;
        int pl = b.patternLowLatch;
        int ph = b.patternHighLatch;
        final int bgTable = (ctrl & 0x10) << 8;
        final int[] a12 = rb.a12Line;
        final byte[] chr = rb.chr;
        final int[] chrPg = rb.chrPage;
        final byte[] ntm = rb.nt;
        final int[] ntPg = rb.ntPage;
        while (d < end) {
            if (chr != null && (d & 7) == 0 && end - d >= 8) {
                // A whole tile, dots d+1..d+8, on a board with plain reads (an A12-watching one
                // told of changes as in visibleDots): a shift and the reload on its first dot,
                // its four fetches, seven more shifts and the coarse X step on its last dot.
                if (d != 320) {
                    // Dot 321 neither shifts nor reloads (Background.dot).
                    lo = (lo << 1 & 0xFF00) | pl;
                    hi = (hi << 1 & 0xFF00) | ph;
                    al = (al << 1 & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                    ah = (ah << 1 & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                }
                // visibleDots's tile fetch, written out here too: a shared helper cost 2-5%
                // (docs/design/performance.md, "Whole tiles in a loop of their own").
                if (a12 != null) {
                    rb.a12Fall(0x2000 | (vv & 0x0FFF), d);
                }
                final int ntBase = ntPg[(vv >> 10) & 3];
                nt = ntm[ntBase | (vv & 0x3FF)] & 0xFF;
                final int a = ntm[ntBase | 0x3C0 | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07)] & 0xFF;
                at = Background.attributeBits(a, vv);
                final int pa = bgTable | (nt << 4) | ((vv >> 12) & 7);
                if (a12 != null) {
                    rb.a12Tile(0x2000 | (vv & 0x0FFF), pa, d);
                }
                final int pb = chrPg[pa >> 10] | (pa & 0x3FF);
                pl = chr[pb] & 0xFF;
                ph = chr[pb | 8] & 0xFF;
                lo = lo << 7;
                hi = hi << 7 | 0x7F;
                al = al << 7 | (al & 1) * 0x7F;
                ah = ah << 7 | (ah & 1) * 0x7F;
                d += 8;
                vv = Scroll.incrementX(vv);
                if (d == 256) {
                    vv = Scroll.incrementY(vv);
                }
                continue;
            }
            d++;
            final boolean clocked = d != 321;
            if (clocked) {
                lo = lo << 1;
                hi = hi << 1 | 1;
                al = al << 1 | (al & 1);
                ah = ah << 1 | (ah & 1);
            }
            final int phase = d & 7;
            if ((phase & 1) != 0) {
                if (phase == 1 && clocked) {
                    lo = (lo & 0xFF00) | pl;
                    hi = (hi & 0xFF00) | ph;
                    al = (al & 0xFF00) | ((at & 1) != 0 ? 0xFF : 0);
                    ah = (ah & 0xFF00) | ((at & 2) != 0 ? 0xFF : 0);
                }
                final int value = rb.fetchAt(Background.fetchAddress(phase, vv, nt, bgTable), d);
                switch (phase) {
                    case 1 -> nt = value;
                    case 3 -> at = Background.attributeBits(value, vv);
                    case 5 -> pl = value;
                    default -> ph = value;
                }
            } else if (phase == 0) {
                vv = Scroll.incrementX(vv);
                if (d == 256) {
                    vv = Scroll.incrementY(vv);
                }
            }
        }
        rb.endBatch(d);
        time.dot = d;
        scroll.v = vv;
        b.shiftLow = lo;
        b.shiftHigh = hi;
        b.atShiftLow = al;
        b.atShiftHigh = ah;
        b.ntLatch = nt;
        b.atLatch = at;
        b.patternLowLatch = pl;
        b.patternHighLatch = ph;
    }

    /**
     * Dots {@code dot+1 .. dot+k} within 257..340 of a visible line ({@code visible}), or within
     * 257..338 of the pre-render line, with rendering on and no register effect pending: the
     * horizontal (and on the pre-render line vertical) copy of t into v, the sprite pattern
     * fetches with OAMADDR held at 0, the first two tiles of the next line and the two unused
     * nametable fetches, with the same bus addresses in the same order as the dot-by-dot path.
     */
    void hblankDots(int k, boolean visible, int ctrl) {
        final RenderBus rb = bus;
        final Timing time = timing;
        final Scroll sc = scroll;
        final SpriteFetch sf = sprites;
        rb.startBatch();
        int d = time.dot;
        final int end = d + k;
        if (d < 320) {
            // Sprite fetches, dots 257-320: the scroll and the sprite fields stay in their fields
            // (a couple of dozen accesses a line), the loop runs without the dot path's dispatch.
            final int stop = Math.min(end, 320);
            final int line = time.scanline;
            final int[] a12 = rb.a12Line;
            final byte[] chr = rb.chr;
            final int[] chrPg = rb.chrPage;
            while (d < stop) {
                if (chr != null && ((d - 256) & 7) == 0 && stop - d >= 8) {
                    // A whole slot (dots d+1..d+8) on a board with plain reads: its two garbage
                    // nametable fetches read nothing anyone sees, and its scroll copies only
                    // need t, so the slot is its fields and its two pattern reads. An
                    // A12-watching board is told when the first garbage fetch (dot d+1, A12
                    // low) or the first pattern fetch (d+5) changes A12.
                    final int slot = (d - 256) >> 3;
                    // Slot 0's nametable address is set up from v before the horizontal copy.
                    final int ntAddr = 0x2000 | (sc.v & 0x0FFF);
                    if (slot == 0) {
                        background.shift();
                        background.reload();
                        sc.copyHorizontal();
                        sf.start();
                    }
                    if (a12 != null) {
                        rb.a12Fall(ntAddr, d);
                    }
                    sf.load(slot);
                    final int pa = sf.patternAddress(slot, line, ctrl);
                    if (a12 != null) {
                        rb.a12Tile(ntAddr, pa, d);
                    }
                    final int pb = chrPg[pa >> 10] | (pa & 0x3FF);
                    final int low = chr[pb] & 0xFF;
                    sf.patternLow = low;
                    sf.compose(slot, line, ctrl, low, chr[pb | 8] & 0xFF);
                    d += 8;
                    if (!visible && d >= 280 && d - 7 <= 304) {
                        sc.copyVertical();
                    }
                    continue;
                }
                d++;
                final int p = d - 257;
                final int phase = p & 7;
                if ((phase & 1) == 0) {
                    // The slot's fetches on its even dots: two garbage nametable fetches, then the
                    // pattern planes, through one call (see docs/design/ppu.md).
                    final int slot = p >> 3;
                    if (phase == 0) {
                        if (p == 0) {
                            background.shift();
                            background.reload();
                            sf.start();
                        }
                        sf.load(slot);
                    }
                    final int value = rb.fetchAt(phase < 4 ? 0x2000 | (sc.v & 0x0FFF)
                            : sf.patternAddress(slot, line, ctrl) | (phase == 6 ? 8 : 0), d);
                    if (p == 0) {
                        // After the nametable address of dot 257 is set up from v.
                        sc.copyHorizontal();
                    }
                    if (phase == 4) {
                        sf.patternLow = value;
                    } else if (phase == 6) {
                        sf.compose(slot, line, ctrl, sf.patternLow, value);
                    }
                }
                if (!visible && d >= 280 && d <= 304) {
                    sc.copyVertical();
                }
            }
            spriteEvaluation.oamAddr = 0;
        }
        rb.endBatch(d);
        if (d < end && d < 336) {
            // The next line's first two tiles, dots 321-336 (with a queue of their own).
            time.dot = d;
            tileFetchDots(Math.min(end, 336) - d, ctrl);
            d = time.dot;
            rb.startBatch();
        }
        final Background b = background;
        while (d < end) {
            // Dots 337-340: one last shift and reload, and two unused nametable fetches.
            d++;
            if (d == 337) {
                b.shift();
                b.reload();
            }
            if ((d & 1) != 0) {
                b.ntLatch = rb.fetchAt(0x2000 | (sc.v & 0x0FFF), d);
            }
        }
        rb.endBatch(d);
        time.dot = d;
    }
}
