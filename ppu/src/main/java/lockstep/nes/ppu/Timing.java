package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.StateVisitor;

/**
 * Where the PPU is: scanline 0 to the region's pre-render line (NTSC: 0-239 visible, 240
 * post-render, 241-260 vertical blank, 261 pre-render; see {@link Region}), dot 0-340, the frame
 * count (incremented when line 241 begins: the picture is done) and the odd-frame flag (on NTSC,
 * odd frames skip the pre-render line's last dot when rendering).
 */
final class Timing {
    /** The region's pre-render line, the last of the frame. Fixed wiring, not state. */
    private final int lastLine;

    int scanline;
    int dot;
    long frameCount;
    boolean oddFrame;

    Timing(Region region) {
        lastLine = region.preRenderLine;
    }

    void power() {
        scanline = 0;
        dot = 0;
        frameCount = 0;
        oddFrame = false;
    }

    /** The step from dot 340 to the next line's dot 0. */
    void nextScanline() {
        if (++scanline > lastLine) {
            scanline = 0;
            oddFrame = !oddFrame;
        } else if (scanline == 241) {
            frameCount++;
        }
    }

    /** The part of the PPU's digest term that changes on every dot (see {@link Ppu#digestTerm}). */
    long hotTerm() {
        return W0 * (((scanline & 0xFFFFFFFFL) << 32) | (dot & 0xFFFFFFFFL));
    }

    /** The part of the PPU's digest term that changes once a line at most. */
    long coldTerm() {
        return W1 * frameCount + W2 * (DigestKeys.b(oddFrame) << 59);
    }

    void state(StateVisitor s) {
        scanline = s.i32("scanline", scanline, 0, lastLine);
        dot = s.i32("dot", dot, 0, 340);
        frameCount = s.i64("frameCount", frameCount, 0, Long.MAX_VALUE);
        oddFrame = s.bool("oddFrame", oddFrame);
    }
}
