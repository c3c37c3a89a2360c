package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * Sprite evaluation on dots 1-256 of visible lines: finds the next line's sprites in OAM, byte by
 * byte through the OAM bus, into secondary OAM; then the overflow search with the hardware bug.
 * Owns OAM, secondary OAM, OAMADDR (the OAM bus address) and the overflow flag.
 */
final class SpriteEvaluation {
    /** OAM byte 2 (attributes) has no storage for bits 2-4. */
    private static final int[] OAM_MASK = {0xFF, 0xFF, 0xE3, 0xFF};

    final Memory oam = new Memory("oam", Memory.OAM, 256);
    final Memory secondaryOam = new Memory("secondaryOam", Memory.SECONDARY_OAM, 32);
    /** OAM's and secondary OAM's live bytes, for reads (writes go through the Memory). */
    final byte[] oamBytes = oam.array();
    final byte[] secondaryOamBytes = secondaryOam.array();

    int oamAddr;
    boolean spriteOverflow;
    /** The byte last read on the OAM bus. */
    int oamCopyBuffer;
    int secondaryOamAddr;
    /** The sprite index (n) and byte index (m) of the OAM address being evaluated. */
    int spriteAddrH;
    int spriteAddrL;
    boolean spriteInRange;
    boolean oamCopyDone;
    int overflowBugCounter;
    boolean sprite0Added;
    /** Sprites found for the next line, and whether slot 0 holds OAM sprite 0. */
    int spriteCount;
    boolean sprite0InLine;
    /**
     * OAM rows (8 bytes each, bit i for row i) that rendering switched off on a rendering line
     * left to be overwritten by row 0 when rendering starts again.
     */
    int corruptRows;

    void power() {
        oamAddr = 0;
        spriteOverflow = false;
        oamCopyBuffer = 0;
        secondaryOamAddr = 0;
        spriteAddrH = spriteAddrL = 0;
        spriteInRange = false;
        oamCopyDone = false;
        overflowBugCounter = 0;
        sprite0Added = false;
        spriteCount = 0;
        sprite0InLine = false;
        corruptRows = 0;
        oam.fill(0);
        secondaryOam.fill(0xFF);
    }

    /** Dot {@code d} (1-256) of visible line {@code line}. */
    void dot(int d, int line, int ctrl) {
        if (d <= 64) {
            // Secondary OAM clear: reads return $FF, a write every other dot.
            oamCopyBuffer = 0xFF;
            if ((d & 1) == 0) {
                secondaryOam.write((d - 1) >> 1, 0xFF);
            }
            return;
        }
        if (d == 65) {
            // Evaluation starts wherever OAMADDR points, aligned or not.
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
            write(d == 66, line, ctrl);
        }
        if (d == 256) {
            sprite0InLine = sprite0Added;
            spriteCount = secondaryOamAddr >> 2;
        }
    }

    /**
     * Even dots 66-256: write (or, once full, read) secondary OAM and step the OAM address.
     * {@code first}: the line's first evaluation step, whose sprite (whatever its index) is the
     * one that can make a sprite 0 hit on the next line.
     */
    private void write(boolean first, int line, int ctrl) {
        if (oamCopyDone) {
            // All 64 sprites seen (or the overflow search over): writes become reads, and the
            // bus takes secondary OAM's byte at the current slot (slot 0 once full).
            spriteAddrH = (spriteAddrH + 1) & 0x3F;
            oamCopyBuffer = secondaryOam.read(secondaryOamAddr & 0x1F);
        } else {
            final int height = (ctrl & 0x20) != 0 ? 16 : 8;
            final int row = line - oamCopyBuffer;
            final boolean inRange = row >= 0 && row < height;
            if (!spriteInRange && inRange) {
                spriteInRange = true;
            }
            if (secondaryOamAddr < 0x20) {
                secondaryOam.write(secondaryOamAddr, oamCopyBuffer);
                // The sprite and byte indexes step (OAMADDR follows them): after rendering was
                // off, OAMADDR may have been reset by dots 257-320 while they kept their place.
                final int address = (spriteAddrH << 2) | (spriteAddrL & 3);
                if (spriteInRange) {
                    // Copying: OAMADDR counts up by one byte at a time, so a misaligned start
                    // stays misaligned through the copy.
                    secondaryOamAddr++;
                    if (first) {
                        sprite0Added = true;
                    }
                    int next = address + 1;
                    if ((secondaryOamAddr & 3) == 0) {
                        // The X slot written ends the copy; an X out of range (compared as a Y)
                        // realigns OAMADDR, unless this copy filled secondary OAM: then sprite
                        // and byte index step together, as for a Y out of range when full.
                        spriteInRange = false;
                        if (!inRange) {
                            next = secondaryOamAddr == 0x20 ? stepBoth(address) : next & 0x1FC;
                        }
                    }
                    step(next);
                } else {
                    // Y out of range: on to the next sprite, realigned.
                    step((address + 4) & 0x1FC);
                }
                return;
            } else {
                // Secondary OAM is full: writes become reads, and the overflow search starts,
                // with the hardware bug that steps the byte index along with the sprite index.
                oamCopyBuffer = secondaryOam.read(secondaryOamAddr & 0x1F);
                if (spriteInRange) {
                    spriteOverflow = true;
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

    /**
     * {@code address} with the sprite index (n) and the byte index (m) both stepped, m wrapping
     * without a carry into n (OAMADDR + 5, or + 1 from m = 3): 0-$1FF, as {@link #step} takes it.
     */
    private static int stepBoth(int address) {
        return ((address & 0xFC) + 4) | ((address + 1) & 3);
    }

    /** OAMADDR to {@code next} (0-$1FF): a carry out of bit 7 means all 64 sprites were seen. */
    private void step(int next) {
        if (next > 0xFF) {
            oamCopyDone = true;
        }
        oamAddr = next & 0xFF;
        spriteAddrH = oamAddr >> 2;
        spriteAddrL = oamAddr & 3;
    }

    /**
     * The byte on the OAM bus on dot {@code d} of a rendering line outside the evaluation's own
     * dots: on 257-320 the secondary OAM byte the sprite fetch reads (Y, tile, attributes, then X
     * four times for each slot), on 321-340 and 0 secondary OAM's first byte; -1 on dots 1-256,
     * where the evaluation's buffer is on the bus.
     */
    private int fetchBus(int d) {
        if (d >= 257 && d <= 320) {
            final int step = (d - 257) & 7;
            return secondaryOam.read((((d - 257) >> 3) << 2) + (step > 3 ? 3 : step));
        }
        if (d > 320 || d == 0) {
            return secondaryOam.read(0);
        }
        return -1;
    }

    /**
     * An OAMDATA read: while rendering, the byte on the OAM bus on dot {@code d} (see
     * {@link #fetchBus}); otherwise OAM at OAMADDR.
     */
    int readData(boolean rendering, int d) {
        if (rendering) {
            final int fetched = fetchBus(d);
            if (fetched >= 0) {
                oamCopyBuffer = fetched;
            }
            return oamCopyBuffer;
        }
        return oam.read(oamAddr);
    }

    /** {@link #readData} without its side effect. */
    int peekData(boolean rendering, int d) {
        if (rendering) {
            final int fetched = fetchBus(d);
            return fetched >= 0 ? fetched : oamCopyBuffer;
        }
        return oam.read(oamAddr);
    }

    /**
     * An OAMADDR write. During rendering OAMADDR is the evaluation's address: the sprite and
     * byte indexes follow it.
     */
    void writeAddress(int value) {
        oamAddr = value & 0xFF;
        spriteAddrH = oamAddr >> 2;
        spriteAddrL = oamAddr & 3;
    }

    /**
     * An OAMDATA write: during rendering it does not reach OAM but bumps OAMADDR's sprite index
     * (n) and clears its byte index, as the evaluation's own step to the next sprite does.
     */
    void writeData(boolean rendering, int value) {
        if (rendering) {
            writeAddress((oamAddr + 4) & 0xFC);
        } else {
            oam.write(oamAddr, value & OAM_MASK[oamAddr & 3]);
            oamAddr = (oamAddr + 1) & 0xFF;
        }
    }

    /**
     * Rendering switched off after dot {@code d} of a rendering line. During the secondary OAM
     * clear (dots 0-63) and the sprite fetches (256-319) the OAM row the secondary OAM address
     * selects is left to be overwritten with row 0 when rendering starts again: the clear's
     * address moves a row every 2 dots; each fetch slot's 8 dots cover 4 rows, the last for 5 dots.
     */
    void renderingStopped(int d) {
        if (d < 64) {
            corruptRows |= 1 << (d >> 1);
        } else if (d >= 256 && d < 320) {
            corruptRows |= 1 << ((((d - 256) >> 3) << 2) + Math.min(3, (d - 256) & 7));
        }
    }

    /** Rendering starts again: the rows left by {@link #renderingStopped} take row 0's 8 bytes. */
    void renderingStarted() {
        final int rows = corruptRows & ~1;
        corruptRows = 0;
        for (int row = 1; row < 32; row++) {
            if ((rows & (1 << row)) != 0) {
                for (int i = 0; i < 8; i++) {
                    oam.write((row << 3) | i, oam.read(i));
                }
            }
        }
    }

    /**
     * Rendering starts a frame (the pre-render line) with OAMADDR at 8 or more: the 8 bytes of
     * the row OAMADDR points into are copied over row 0.
     */
    void frameStarts() {
        if (oamAddr >= 8) {
            final int row = oamAddr & 0xF8;
            for (int i = 0; i < 8; i++) {
                oam.write(i, oam.read(row | i));
            }
        }
    }

    /** The part of the PPU's digest term that changes during rendering (see {@link Ppu#digestTerm}). */
    long hotTerm() {
        return W2 * ((DigestKeys.b(spriteOverflow) << 40) | ((oamAddr & 0xFFL) << 32))
        + W15 * (((oamCopyBuffer & 0xFFL) << 52)
            | ((secondaryOamAddr & 0xFFL) << 44)
            | ((spriteAddrH & 0xFFL) << 36)
            | ((spriteAddrL & 0xFFL) << 28)
            | (DigestKeys.b(spriteInRange) << 27)
            | (DigestKeys.b(oamCopyDone) << 26)
            | ((overflowBugCounter & 0xFFL) << 18)
            | (DigestKeys.b(sprite0Added) << 17)
            | ((spriteCount & 0xFFL) << 9)
            | (DigestKeys.b(sprite0InLine) << 8))
        + W20 * secondaryOam.hash();
    }

    /** OAM's and the rows left to corruption's part: they change through register writes only. */
    long coldTerm() {
        return W19 * oam.hash() + W22 * ((corruptRows & 0xFFFFFFFFL) << 25); // the sprite units' entries follow
    }

    /** The entries among the PPU's status and registers (after sprite 0 hit). */
    void registerState(StateVisitor s) {
        spriteOverflow = s.bool("spriteOverflow", spriteOverflow);
        oamAddr = s.u8("oamAddr", oamAddr);
    }

    void state(StateVisitor s) {
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
    }

    /** The OAM rows left to corruption: the PPU's last entry (the word after the palette's). */
    void corruptionState(StateVisitor s) {
        corruptRows = s.i32("oamCorruptRows", corruptRows, Integer.MIN_VALUE, Integer.MAX_VALUE); // a bit per row
    }

    void memoryState(StateVisitor s) {
        oam.state(s);
        secondaryOam.state(s);
    }
}
