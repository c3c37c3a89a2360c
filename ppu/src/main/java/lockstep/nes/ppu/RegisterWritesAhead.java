package lockstep.nes.ppu;

/**
 * Which CPU writes to the PPU's registers may land before a lazily stepped PPU has run the dots
 * up to the write: those that change nothing those dots read. The dots skip the copies from t
 * (dot 257 of every line, the whole pre-render line) and the frame counter's step (line 241,
 * whose frame the open-bus latch's refresh keeps); only register accesses read w and the latch.
 * The writes:
 * <ul>
 *   <li>a first $2006 write or a second $2005 write: t, w;</li>
 *   <li>a first $2005 write: t, w and fine X, which only the pixels of dots 1-256 of a visible
 *       line read;</li>
 *   <li>a $2000 write that keeps bits 2-7: t, and ctrl's nametable bits, which only t's copy of
 *       them is read from;</li>
 *   <li>any of these before the warm-up ignores them: the latch alone.</li>
 * </ul>
 * Why a lazily stepped PPU may take such writes early: docs/design/ppu.md.
 */
final class RegisterWritesAhead {
    /** The position (line * 341 + dot) at which the frame counter steps ({@link Timing#nextScanline}). */
    private static final long FRAME_STEP = 241 * 341L;

    private RegisterWritesAhead() {
    }

    /**
     * True when a write of {@code value} to register {@code reg}, made {@code dotsBehind} dots
     * after the PPU's position ({@code timing}), may land before the PPU runs those dots.
     */
    static boolean lands(int reg, int value, long dotsBehind, Timing timing, Scroll scroll, int preRenderLine,
                         boolean warmedUp, int ctrl) {
        final int d = timing.dot;
        final int line = timing.scanline;
        final long from = line * 341L + d;
        final long to = from + dotsBehind;
        if (line == preRenderLine || to >= preRenderLine * 341L || to >= (d < 257 ? line : line + 1) * 341L + 257
                || (from < FRAME_STEP && to >= FRAME_STEP)) {
            return false;
        }
        return switch (reg & 7) {
            case 0 -> !warmedUp || ((value ^ ctrl) & 0xFC) == 0;
            case 5 -> !warmedUp || scroll.w || (value & 7) == scroll.fineX || to < firstPixelAfter(line, d);
            case 6 -> !warmedUp || !scroll.w;
            default -> false;
        };
    }

    /** The position of the first dot after ({@code line}, {@code d}) that draws a pixel (dots 1-256 of lines 0-239). */
    private static long firstPixelAfter(int line, int d) {
        if (line < 240 && d < 256) {
            return line * 341L + d + 1;
        }
        return line < 239 ? (line + 1) * 341L + 1 : Long.MAX_VALUE;
    }
}
