package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.StateVisitor;

/**
 * The sprite fetches on dots 257-320: for each of the 8 slots, its 4 bytes from secondary OAM,
 * two garbage nametable fetches and the pattern planes of its row in the next line, which go to
 * the sprite output units ({@link PixelOutput#composeSprite}). Empty slots fetch tile $FF.
 */
final class SpriteFetch {
    int spriteY;
    int spriteTile;
    int spriteAttr;
    int spriteX;
    int patternLow;

    private final SpriteEvaluation evaluation;
    private final Scroll scroll;
    private final RenderBus bus;
    private final PixelOutput pixels;
    private final SpriteUnits units;

    SpriteFetch(SpriteEvaluation evaluation, Scroll scroll, RenderBus bus, PixelOutput pixels, SpriteUnits units) {
        this.evaluation = evaluation;
        this.scroll = scroll;
        this.bus = bus;
        this.pixels = pixels;
        this.units = units;
    }

    void power() {
        spriteY = spriteTile = spriteAttr = spriteX = patternLow = 0;
    }

    /**
     * Dot 257 of a rendering line: the next line's sprites start empty. The pre-render line
     * evaluates nothing, so its fetches take the sprites secondary OAM still holds (line 239's,
     * or whichever line evaluated last; see {@link #compose}).
     */
    void start() {
        pixels.clearSpriteLine();
        units.lineStart();
    }

    /** The first dot of slot {@code slot}: its 4 bytes from secondary OAM. */
    void load(int slot) {
        final byte[] sec = evaluation.secondaryOamBytes;
        final int base = slot << 2;
        spriteY = sec[base] & 0xFF;
        spriteTile = sec[base + 1] & 0xFF;
        spriteAttr = sec[base + 2] & 0xFF;
        spriteX = sec[base + 3] & 0xFF;
    }

    /** Dot {@code d} (257-320) of a rendering line {@code line}. */
    void dot(int d, int line, int ctrl) {
        final int slot = (d - 257) >> 3;
        final int phase = (d - 257) & 7;
        if ((phase & 1) != 0) {
            return;
        }
        if (phase == 0) {
            load(slot);
        }
        // Two garbage nametable fetches, then the pattern planes (one call: docs/design/ppu.md).
        final int value = bus.fetchDot(phase < 4 ? 0x2000 | (scroll.v & 0x0FFF)
                : patternAddress(slot, line, ctrl) | (phase == 6 ? 8 : 0));
        if (phase == 4) {
            patternLow = value;
        } else if (phase == 6) {
            compose(slot, line, ctrl, patternLow, value);
        }
    }

    /** The low pattern plane's address of slot {@code slot}'s row on the line after {@code line}. */
    int patternAddress(int slot, int line, int ctrl) {
        if (slot >= evaluation.spriteCount) {
            // Empty slots fetch tile $FF, row 0 (in 8x16 mode: bank $1000, tile $FE).
            return (ctrl & 0x20) != 0 ? 0x1FE0 : ((ctrl & 0x08) << 9) | 0x0FF0;
        }
        int row = (line - spriteY) & 0xFF;
        final boolean flipV = (spriteAttr & 0x80) != 0;
        if ((ctrl & 0x20) != 0) {
            row &= 15;
            if (flipV) {
                row = 15 - row;
            }
            final int tile = (spriteTile & 0xFE) | (row >> 3);
            return ((spriteTile & 1) << 12) | (tile << 4) | (row & 7);
        }
        row &= 7;
        if (flipV) {
            row = 7 - row;
        }
        return ((ctrl & 0x08) << 9) | (spriteTile << 4) | row;
    }

    /**
     * Slot {@code slot}'s fetched row ({@code low}, {@code high}) for the line after
     * {@code line} to its sprite output unit and, if the slot holds a sprite, to the sprite line.
     * On the pre-render line the slots are secondary OAM's stale sprites, shown only where the
     * line's Y comparison finds them in range: sprites evaluated on line 239 are not, ones left
     * from an early line can be.
     */
    void compose(int slot, int line, int ctrl, int low, int high) {
        final boolean zero = slot == 0 && evaluation.sprite0InLine;
        if (slot < evaluation.spriteCount
                && (line < 240 || ((line - spriteY) & 0xFF) < ((ctrl & 0x20) != 0 ? 16 : 8))) {
            pixels.composeSprite(spriteX, spriteAttr, low, high, zero);
            units.load(slot, spriteX, spriteAttr, low, high, zero);
        } else {
            units.load(slot, spriteX, spriteAttr, 0, 0, zero);
        }
    }

    /** This unit's part of the PPU's digest term; it changes during rendering. */
    long term() {
        return W15 * (spriteY & 0xFFL)
        + W16 * (((spriteTile & 0xFFL) << 24)
            | ((spriteAttr & 0xFFL) << 16)
            | ((spriteX & 0xFFL) << 8)
            | (patternLow & 0xFFL));
    }

    void state(StateVisitor s) {
        spriteY = s.u8("spriteY", spriteY);
        spriteTile = s.u8("spriteTile", spriteTile);
        spriteAttr = s.u8("spriteAttr", spriteAttr);
        spriteX = s.u8("spriteX", spriteX);
        patternLow = s.u8("spritePatternLow", patternLow);
    }
}
