package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;
import lockstep.nes.state.StateVisitor;

/**
 * The pixel on dots 1-256 of visible lines: background and sprite pixels, their priority and the
 * sprite 0 hit, the palette RAM lookup, and greyscale and emphasis at the video output. Holds the
 * next line's sprite pixels as the sprite output units will show them, and the picture.
 */
final class PixelOutput {
    static final int WIDTH = 256;
    static final int HEIGHT = 240;

    /** Power-on palette RAM contents seen on a real console (any fixed pattern would do). */
    private static final int[] POWER_UP_PALETTE = {
        0x09, 0x01, 0x00, 0x01, 0x00, 0x02, 0x02, 0x0D, 0x08, 0x10, 0x08, 0x24, 0x00, 0x00, 0x04, 0x2C,
        0x09, 0x01, 0x34, 0x03, 0x00, 0x04, 0x00, 0x14, 0x08, 0x3A, 0x00, 0x02, 0x00, 0x20, 0x2C, 0x08,
    };

    @NotState("picture output buffer")
    final short[] frame = new short[WIDTH * HEIGHT];
    /**
     * Whether the picture is drawn. Nothing of the PPU's state depends on it (the picture is the
     * video output, not state), so a PPU that does not draw goes through the same states.
     */
    @NotState("output setting: whether the picture is drawn")
    boolean drawing = true;
    final Memory palette = new Memory("palette", Memory.PALETTE, 32);
    /** The palette's live bytes, for reads on the hot path (writes go through the Memory). */
    final byte[] paletteRam = palette.array();
    /**
     * The next line's sprite pixels, composed from the fetched patterns: bits 0-4 the palette
     * index (0x10-0x1F, 0 = transparent), bit 5 behind background, bit 6 sprite 0 opaque here.
     * Built from fetched state, so it is visited as state; a {@link Memory} so the per-cycle
     * digest reads its incremental hash instead of 256 bytes.
     */
    final Memory spriteLine = new Memory("spriteLine", Memory.SPRITE_LINE, WIDTH);
    /** Whether the sprite line holds any pixel. */
    boolean spriteLineDirty;
    /** Colours of the last two pixels composed, before greyscale/emphasis (see {@link #reapplyMask}). */
    int rawColorLast;
    int rawColorBefore;
    boolean sprite0Hit;
    /**
     * The palette with greyscale and emphasis of mask {@link #shownMask} applied, for whole
     * tiles of a batch; -1 when the palette may have changed since.
     */
    @NotState("cache of the 32 shown colours, rebuilt from palette and mask when shownMask says it is stale")
    final short[] shownColor = new short[32];
    @NotState("cache key of shownColor (the mask it was built for, -1 after a palette change or load)")
    int shownMask = -1;

    private final Background background;
    private final Scroll scroll;

    PixelOutput(Background background, Scroll scroll) {
        this.background = background;
        this.scroll = scroll;
    }

    void power() {
        spriteLine.fill(0);
        spriteLineDirty = false;
        rawColorLast = rawColorBefore = 0;
        sprite0Hit = false;
        for (int i = 0; i < 32; i++) {
            palette.write(i, POWER_UP_PALETTE[i]);
        }
        shownMask = -1;
        java.util.Arrays.fill(frame, (short) 0);
    }

    /**
     * Draws the picture from now on, or stops drawing it ({@link #drawing}); a picture started
     * again is blank where nothing was drawn since.
     */
    void drawing(boolean on) {
        if (on && !drawing) {
            java.util.Arrays.fill(frame, (short) 0);
        }
        drawing = on;
    }

    /** Pixel {@code x} of visible line {@code line} with mask {@code m}. */
    void draw(int x, int line, int m) {
        draw(x, line, m, spriteLineDirty ? spriteLine.read(x) : 0);
    }

    /**
     * Pixel {@code x} of visible line {@code line} with mask {@code m} and the sprite pixel
     * {@code sp} (in the sprite line's form: from it, or from the live sprite output units).
     */
    void draw(int x, int line, int m, int sp) {
        int bg = 0;
        if ((m & 0x08) != 0 && (x >= 8 || (m & 0x02) != 0)) {
            bg = background.pixel(scroll.fineX);
        }
        int index = bg;
        if (sp != 0 && (m & 0x10) != 0 && (x >= 8 || (m & 0x04) != 0)) {
            if ((sp & 0x40) != 0 && bg != 0 && x != 255) {
                sprite0Hit = true;
            }
            if ((sp & 0x1F) != 0 && (bg == 0 || (sp & 0x20) == 0)) {
                index = sp & 0x1F;
            }
        }
        output(x, line, palette.read((index & 3) == 0 ? 0 : index), m);
    }

    /**
     * Pixel {@code x} with rendering off: the backdrop, or the palette entry v points at while v
     * is in the palette.
     */
    void drawBackdrop(int x, int line, int m) {
        final int vv = scroll.v;
        output(x, line, palette.read((vv & 0x3F00) == 0x3F00 ? vv & 0x1F : 0), m);
    }

    /** Writes pixel {@code x} of line {@code line} with greyscale and emphasis of mask {@code m}. */
    private void output(int x, int line, int color, int m) {
        rawColorBefore = rawColorLast;
        rawColorLast = color;
        if ((m & 0x01) != 0) {
            color &= 0x30;
        }
        if (drawing) {
            frame[(line << 8) | x] = (short) (color | ((m & 0xE0) << 1));
        }
    }

    /**
     * Greyscale and emphasis act at the video output, two dots after a pixel is composed: a
     * $2001 write on dot {@code d} of line {@code line} also changes the two pixels composed
     * just before it.
     */
    void reapplyMask(int line, int d, int m) {
        if (line >= 240 || d < 1 || d > 257 || !drawing) {
            return;
        }
        final int emphasis = (m & 0xE0) << 1;
        final int grey = (m & 0x01) != 0 ? 0x30 : 0x3F;
        final int base = line << 8;
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

    /** At the start of the sprite fetches: the next line has no sprite pixels yet. */
    void clearSpriteLine() {
        if (spriteLineDirty) {
            spriteLine.fill(0);
            spriteLineDirty = false;
        }
    }

    /**
     * A sprite's row of pattern planes {@code low}, {@code high} at {@code x0} with attributes
     * {@code attr}: its opaque pixels where no earlier (higher-priority) sprite has one; sprite
     * 0's ({@code zero}) opaque pixels mark the hit test.
     */
    void composeSprite(int x0, int attr, int low, int high, boolean zero) {
        if ((low | high) == 0) {
            return; // a transparent row
        }
        final boolean flipH = (attr & 0x40) != 0;
        final int pal = 0x10 | ((attr & 3) << 2);
        final int behind = (attr & 0x20) != 0 ? 0x20 : 0;
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

    /** $3F00-$3FFF: 32 bytes mirrored; $3F10/$3F14/$3F18/$3F1C are $3F00/$3F04/$3F08/$3F0C. */
    private static int paletteIndex(int addr) {
        final int i = addr & 0x1F;
        return (i & 0x13) == 0x10 ? i & 0x0F : i;
    }

    int readPalette(int addr) {
        return palette.read(paletteIndex(addr));
    }

    void writePalette(int addr, int value) {
        palette.write(paletteIndex(addr), value & 0x3F);
        shownMask = -1;
    }

    /** The part of the PPU's digest term that changes during rendering (see {@link Ppu#digestTerm}). */
    long hotTerm() {
        return W2 * (DigestKeys.b(sprite0Hit) << 41)
        + W17 * spriteLine.hash()
        + W18 * (((rawColorLast & 0xFFL) << 9)
            | ((rawColorBefore & 0xFFL) << 1)
            | DigestKeys.b(spriteLineDirty));
    }

    /** The palette's part: it changes through register writes only. */
    long coldTerm() {
        return W21 * palette.hash();
    }

    /** The entry among the PPU's status flags. */
    void hitState(StateVisitor s) {
        sprite0Hit = s.bool("sprite0Hit", sprite0Hit);
    }

    void state(StateVisitor s) {
        spriteLine.state(s);
        rawColorLast = s.u8("rawColorLast", rawColorLast, 0x3F);
        rawColorBefore = s.u8("rawColorBefore", rawColorBefore, 0x3F);
        spriteLineDirty = s.bool("spriteLineDirty", spriteLineDirty);
    }

    void paletteState(StateVisitor s) {
        palette.state(s);
        shownMask = -1;
    }
}
