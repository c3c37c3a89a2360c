package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.StateVisitor;

/**
 * The background pipeline: each tile's four fetches on its odd dots (nametable, attribute,
 * pattern low, pattern high) into latches, and the 16-bit shift registers that the latches
 * reload every 8 dots and that shift once a dot; the pixel is read at bit 15 - fine X.
 *
 * <p>The shifters are clocked only on dots 2-257 and 322-337 of a rendering line with rendering
 * on, and reloaded on dots 9, 17, ..., 257, 329 and 337: in hblank (258-321) and in forced
 * blank they hold, and after rendering is switched back on the pixels come from what they held.
 * On each shift the low pattern shifter takes a 0 into bit 0 and the high one a 1; an attribute
 * shifter takes the bit of its 1-bit latch (the tile's palette bit, loaded at the reload), which
 * in this 16-bit form is bit 0 itself. A reload replaces bits 0-7 only, so the fill shows only
 * when reloads are skipped (rendering off on a reload dot) while shifts go on: 8 pixels of
 * colour 2 of the attribute latch's palette, opaque.
 */
final class Background {
    int ntLatch;
    int atLatch;
    int patternLowLatch;
    int patternHighLatch;
    int shiftLow;
    int shiftHigh;
    int atShiftLow;
    int atShiftHigh;

    private final Scroll scroll;
    private final RenderBus bus;

    Background(Scroll scroll, RenderBus bus) {
        this.scroll = scroll;
        this.bus = bus;
    }

    void power() {
        ntLatch = atLatch = patternLowLatch = patternHighLatch = 0;
        shiftLow = shiftHigh = atShiftLow = atShiftHigh = 0;
    }

    /**
     * The address of a tile's fetch on its odd dot {@code phase} (1, 3, 5, 7): nametable,
     * attribute, pattern low, pattern high (see docs/design/ppu.md on one fetch call site).
     */
    static int fetchAddress(int phase, int vv, int nt, int bgTable) {
        return switch (phase) {
            case 1 -> 0x2000 | (vv & 0x0FFF);
            case 3 -> 0x23C0 | (vv & 0x0C00) | ((vv >> 4) & 0x38) | ((vv >> 2) & 0x07);
            case 5 -> bgTable | (nt << 4) | ((vv >> 12) & 7);
            default -> bgTable | (nt << 4) | ((vv >> 12) & 7) | 8;
        };
    }

    /** The 2-bit palette of v's tile within its attribute byte {@code value}. */
    static int attributeBits(int value, int vv) {
        return (value >> (((vv >> 4) & 4) | (vv & 2))) & 3;
    }

    /**
     * Dots 1-256 and 321-336 of a rendering line: the shift, the reload and fetch of the tile,
     * coarse X. Dots 1 and 321 neither shift nor reload (the dots before them do not shift).
     */
    void dot(int d, int ctrl) {
        final boolean clocked = d >= 2 && d != 321;
        if (clocked) {
            shift();
        }
        final int phase = d & 7;
        if ((phase & 1) != 0) {
            if (phase == 1 && clocked) {
                reload();
            }
            final int vv = scroll.v;
            final int value = bus.fetchDot(fetchAddress(phase, vv, ntLatch, (ctrl & 0x10) << 8));
            switch (phase) {
                case 1 -> ntLatch = value;
                case 3 -> atLatch = attributeBits(value, vv);
                case 5 -> patternLowLatch = value;
                default -> patternHighLatch = value;
            }
        } else if (phase == 0) {
            scroll.incrementX();
        }
    }

    /** The pattern address the next tile's low fetch will read. */
    int patternAddress(int ctrl) {
        return ((ctrl & 0x10) << 8) | (ntLatch << 4) | ((scroll.v >> 12) & 7);
    }

    /**
     * One shift: a 0 into the low pattern shifter and a 1 into the high one (their serial inputs
     * are tied to those levels), the attribute latches' bits into theirs.
     */
    void shift() {
        shiftLow = shiftLow << 1;
        shiftHigh = (shiftHigh << 1) | 1;
        atShiftLow = (atShiftLow << 1) | (atShiftLow & 1);
        atShiftHigh = (atShiftHigh << 1) | (atShiftHigh & 1);
    }

    void reload() {
        shiftLow = (shiftLow & 0xFF00) | patternLowLatch;
        shiftHigh = (shiftHigh & 0xFF00) | patternHighLatch;
        atShiftLow = (atShiftLow & 0xFF00) | ((atLatch & 1) != 0 ? 0xFF : 0);
        atShiftHigh = (atShiftHigh & 0xFF00) | ((atLatch & 2) != 0 ? 0xFF : 0);
    }

    /** The background pixel at x's fine X (0 transparent; else attribute << 2 | pattern). */
    int pixel(int fineX) {
        final int bit = 15 - fineX;
        int bg = ((shiftLow >> bit) & 1) | (((shiftHigh >> bit) & 1) << 1);
        if (bg != 0) {
            bg |= (((atShiftLow >> bit) & 1) << 2) | (((atShiftHigh >> bit) & 1) << 3);
        }
        return bg;
    }

    /** This unit's part of the PPU's digest term; it changes on every rendering dot. */
    long term() {
        return W12 * (((ntLatch & 0xFFL) << 24)
            | ((atLatch & 0xFFL) << 16)
            | ((patternLowLatch & 0xFFL) << 8)
            | (patternHighLatch & 0xFFL))
        + W13 * (((shiftLow & 0xFFFFFFFFL) << 32) | (shiftHigh & 0xFFFFFFFFL))
        + W14 * (((atShiftLow & 0xFFFFFFFFL) << 32) | (atShiftHigh & 0xFFFFFFFFL));
    }

    void state(StateVisitor s) {
        ntLatch = s.u8("ntLatch", ntLatch);
        atLatch = s.u8("atLatch", atLatch, 3);
        patternLowLatch = s.u8("patternLowLatch", patternLowLatch);
        patternHighLatch = s.u8("patternHighLatch", patternHighLatch);
        shiftLow = s.i32("bgShiftLow", shiftLow, Integer.MIN_VALUE, Integer.MAX_VALUE);
        shiftHigh = s.i32("bgShiftHigh", shiftHigh, Integer.MIN_VALUE, Integer.MAX_VALUE);
        atShiftLow = s.i32("atShiftLow", atShiftLow, Integer.MIN_VALUE, Integer.MAX_VALUE);
        atShiftHigh = s.i32("atShiftHigh", atShiftHigh, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }
}
