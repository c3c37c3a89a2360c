package lockstep.nes.ppu;

import java.util.Locale;

/**
 * The console's TV system, which fixes its clocks and frame (NESdev "Cycle reference chart"):
 * the NTSC NES (2A03/2C02), the PAL NES (2A07/2C07) and the Dendy famiclone (UA6527P/UA6538).
 * Every figure is a final field, read once into the units' own final fields at construction.
 *
 * <ul>
 * <li>NTSC: master clock 236.25 MHz / 11; CPU = master / 12, PPU dot = master / 4 (3 dots per
 * CPU cycle); 262 lines (240 visible, 1 post-render, 20 of vertical blank from line 241, the
 * pre-render line); the pre-render line is a dot short on odd frames when rendering.
 * <li>PAL: master clock 26.6017125 MHz; CPU = master / 16, dot = master / 5 (3.2 dots per CPU
 * cycle); 312 lines (vertical blank from line 241 for 70 lines); no short line; the APU's noise,
 * DMC and frame counter periods are PAL's; emphasis bits 5 and 6 of $2001 select green and red.
 * <li>Dendy: the PAL master clock, CPU = master / 15, dot = master / 5 (3 dots per CPU cycle);
 * 312 lines with 51 post-render lines, vertical blank set at line 291 for 20 lines; no short
 * line; the NTSC APU periods (its frame counter runs at 59 Hz); emphasis as PAL.
 * </ul>
 */
public enum Region {
    NTSC(12, 4, 5, 7, 1, 262, 241, true, false, false, 236_250_000L, 11),
    PAL(16, 5, 7, 9, 3, 312, 241, false, true, true, 53_203_425L, 2),
    DENDY(15, 5, 6, 8, 1, 312, 291, false, true, false, 53_203_425L, 2);

    /** Master clocks per CPU cycle. */
    public final int cpuDivider;
    /** Master clocks per PPU dot. */
    public final int ppuDivider;
    /** Master clocks from the start of a CPU cycle to its bus access, for a read and a write. */
    public final int readClock;
    public final int writeClock;
    /**
     * Master clocks the PPU's dots run behind the CPU's cycles from power-on. The phase is set by
     * the two dividers' states at power (on PAL it differs from one power-on to the next); this is
     * one the hardware shows: NTSC 1 (the tests' alignment), PAL 3 (with 1 the nmi_sync PAL demo's
     * timed $2001 write lands a dot left of the earliest place the 2C07 ever shows it).
     */
    public final int ppuLag;
    /** Lines per frame; the last one is the pre-render line. */
    public final int lines;
    public final int preRenderLine;
    /** The line at whose dot 1 the vertical blank flag (and /NMI) is set. */
    public final int vblankLine;
    /** The pre-render line skips its last dot on odd frames while rendering (the 2C02 only). */
    public final boolean oddFrameSkip;
    /** $2001 bit 5 emphasises green and bit 6 red (the 2C07 and the UA6538 swap the 2C02's pair). */
    public final boolean swapsRedGreenEmphasis;
    /** The APU's noise, DMC and frame counter periods are the 2A07's. */
    public final boolean palApu;
    /** The master clock in Hz, as the fraction {@code masterHzNum / masterHzDen}. */
    public final long masterHzNum;
    public final long masterHzDen;

    Region(int cpuDivider, int ppuDivider, int readClock, int writeClock, int ppuLag, int lines, int vblankLine,
           boolean oddFrameSkip, boolean swapsRedGreenEmphasis, boolean palApu, long masterHzNum, long masterHzDen) {
        this.cpuDivider = cpuDivider;
        this.ppuDivider = ppuDivider;
        this.readClock = readClock;
        this.writeClock = writeClock;
        this.ppuLag = ppuLag;
        this.lines = lines;
        this.preRenderLine = lines - 1;
        this.vblankLine = vblankLine;
        this.oddFrameSkip = oddFrameSkip;
        this.swapsRedGreenEmphasis = swapsRedGreenEmphasis;
        this.palApu = palApu;
        this.masterHzNum = masterHzNum;
        this.masterHzDen = masterHzDen;
    }

    /** Dots in a frame without the odd-frame skip. */
    public int frameDots() {
        return lines * 341;
    }

    /**
     * Master clocks in two frames: NTSC's frames alternate between a short and a full one while
     * rendering (the average frame is half of this), the others are all alike.
     */
    public long twoFrameClocks() {
        return (2L * frameDots() - (oddFrameSkip ? 1 : 0)) * ppuDivider;
    }

    /** Frames per second while rendering: NTSC 60.0988, PAL and Dendy 50.0070. */
    public double frameRate() {
        return 2.0 * masterHzNum / ((double) masterHzDen * twoFrameClocks());
    }

    /** CPU cycles per second. */
    public double cpuHz() {
        return (double) masterHzNum / ((double) masterHzDen * cpuDivider);
    }

    /** The name people use: "NTSC", "PAL" or "Dendy". */
    public String displayName() {
        return this == DENDY ? "Dendy" : name();
    }

    /** The name on the command line: "ntsc", "pal" or "dendy". */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The region named {@code id} (any case), or null. */
    public static Region byId(String id) {
        for (Region r : values()) {
            if (r.id().equalsIgnoreCase(id)) {
                return r;
            }
        }
        return null;
    }
}
