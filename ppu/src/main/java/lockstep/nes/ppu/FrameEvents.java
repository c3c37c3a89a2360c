package lockstep.nes.ppu;

/**
 * The dots of a region's frame that change what the CPU side sees without a register access:
 * the frame counter's step (line 241, dot 0), vertical blank set (NTSC and PAL line 241, Dendy
 * 291; dot 1) and cleared (the pre-render line, dot 1). A lazily stepped PPU is caught up at
 * each, so the CPU never sees them late.
 */
final class FrameEvents {
    /** The events' positions (line * 341 + dot). */
    private final int[] positions;
    /** Dots in a frame without the odd-frame skip. */
    private final int frameDots;
    private final boolean oddFrameSkip;
    private final int preRenderLine;

    FrameEvents(Region region) {
        this.positions = new int[] {241 * 341, region.vblankLine * 341 + 1, region.preRenderLine * 341 + 1};
        this.frameDots = region.frameDots();
        this.oddFrameSkip = region.oddFrameSkip;
        this.preRenderLine = region.preRenderLine;
    }

    /**
     * Dots from ({@code line}, {@code dot}) until the next event. May be one early (the odd-frame
     * skip is assumed), never late; at least 1.
     */
    int dotsAfter(int line, int dot) {
        final int pos = line * 341 + dot;
        int best = Integer.MAX_VALUE;
        for (int target : positions) {
            int dist = target - pos;
            if (dist <= 0) {
                dist += frameDots;
            }
            best = Math.min(best, dist);
        }
        if (oddFrameSkip && line == preRenderLine && dot >= 1 && best > 1) {
            best--;
        }
        return best;
    }
}
