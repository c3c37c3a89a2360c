package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.StateVisitor;

/**
 * loopy's scroll registers: v (the VRAM address, yyy NN YYYYY XXXXX: fine Y, nametable, coarse
 * Y, coarse X), t (the address being written through $2000/$2005/$2006), fine X and the write
 * toggle w shared by $2005 and $2006; the increments and copies rendering makes.
 */
final class Scroll {
    int v;
    int t;
    int fineX;
    boolean w;

    void power() {
        v = 0;
        t = 0;
        fineX = 0;
        w = false;
    }

    /** The reset line clears t, fine X and w; v keeps its value. */
    void reset() {
        t = 0;
        fineX = 0;
        w = false;
    }

    /** $2000: the nametable select bits go to t. */
    void writeCtrl(int value) {
        t = (t & ~0x0C00) | ((value & 3) << 10);
    }

    /** $2005: coarse X and fine X on the first write, coarse Y and fine Y on the second. */
    void writeScroll(int value) {
        if (!w) {
            t = (t & ~0x001F) | (value >> 3);
            fineX = value & 7;
        } else {
            t = (t & ~0x73E0) | ((value & 7) << 12) | ((value & 0xF8) << 2);
        }
        w = !w;
    }

    /**
     * $2006: the high 6 bits of t on the first write (bit 14 cleared), the low byte on the
     * second; returns the completed address after the second write, -1 after the first.
     */
    int writeAddress(int value) {
        final boolean second = w;
        w = !w;
        if (!second) {
            t = (t & 0x00FF) | ((value & 0x3F) << 8);
            return -1;
        }
        t = (t & 0x7F00) | value;
        return t;
    }

    /** Dot 257 of a rendering line: the horizontal bits of t go to v. */
    void copyHorizontal() {
        v = (v & ~0x041F) | (t & 0x041F);
    }

    /** Dots 280-304 of the pre-render line: the vertical bits of t go to v. */
    void copyVertical() {
        v = (v & ~0x7BE0) | (t & 0x7BE0);
    }

    void incrementX() {
        v = incrementX(v);
    }

    void incrementY() {
        v = incrementY(v);
    }

    /** Coarse X + 1, wrapping into the horizontally next nametable. */
    static int incrementX(int vv) {
        return (vv & 0x001F) == 31 ? (vv & ~0x001F) ^ 0x0400 : vv + 1;
    }

    /**
     * Fine Y + 1, carrying into coarse Y; coarse Y wraps from 29 into the vertically next
     * nametable, and from 31 (an attribute row) to 0 in the same nametable.
     */
    static int incrementY(int vv) {
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

    /** v's part of the PPU's digest term: it changes during rendering (see {@link Ppu#digestTerm}). */
    long hotTerm() {
        return W2 * ((v & 0xFFFFL) << 16);
    }

    /** t, fine X and w: they change on register writes only. */
    long coldTerm() {
        return W2 * (t & 0xFFFFL) + W3 * (((fineX & 0xFFL) << 28) | (DigestKeys.b(w) << 27));
    }

    void state(StateVisitor s) {
        v = s.u16("v", v, 0x7FFF);
        t = s.u16("t", t, 0x7FFF);
        fineX = s.u8("fineX", fineX, 7);
        w = s.bool("w", w);
    }
}
