package lockstep.nes.core.hw;

import java.util.function.IntFunction;

/**
 * Pieces of hardware test programs for the PPU: the set-up every such program starts with
 * (PPU warmed up, nametables cleared, all sprites hidden), exact CPU-cycle delays, and sweeps
 * that run a program once per delay, the way a hardware test moves an access across a line
 * dot by dot (each CPU cycle is 3 dots, so a sweep of N cycles covers 3N dots).
 */
final class PpuProgramKit {
    private PpuProgramKit() {
    }

    /**
     * Rendering off, two vblanks waited, nametables $2000-$27FF filled with {@code tile}, every
     * sprite at Y $F0 (off screen), scroll 0, v = 0; ends just after a vblank flag was seen.
     */
    static String setUp(int tile) {
        return String.join("\n",
                "reset:",
                "  sei",
                "  cld",
                "  ldx #$FF",
                "  txs",
                "  lda #0",
                "  sta $2000",
                "  sta $2001",
                "  jsr wait_vblank",
                "  jsr wait_vblank",
                "  lda #$20",
                "  sta $2006",
                "  lda #0",
                "  sta $2006",
                "  ldx #8",
                "  ldy #0",
                "  lda #" + tile,
                "kit_clear:",
                "  sta $2007",
                "  iny",
                "  bne kit_clear",
                "  dex",
                "  bne kit_clear",
                "  lda #0",
                "  sta $2003",
                "  lda #$F0",
                "kit_oam:",
                "  sta $2004",
                "  dex",
                "  bne kit_oam",
                "");
    }

    /**
     * Waits {@code 1 + phase} vblanks with rendering off. A frame without rendering is 89342
     * dots, 2 more than a multiple of 3, so each one moves where the CPU's cycles fall among the
     * dots (and the vblank polls, 7 cycles apart, where they see the flag): over the phases a
     * later access falls on each of the three dots of a CPU cycle.
     */
    static String syncPhase(int phase) {
        return String.join("\n",
                "  ldx #" + (1 + phase),
                "kit_phase:",
                "  jsr wait_vblank",
                "  dex",
                "  bne kit_phase",
                "");
    }

    /** The verdict after a comparison: failure code 2 if {@code branch} ("bne", ...) is taken, else pass. */
    static String passUnless(String branch) {
        return String.join("\n",
                "  " + branch + " kit_bad",
                "  jmp pass",
                "kit_bad:",
                "  lda #2",
                "  jmp fail_a",
                "");
    }

    /** Writes {@code value} to PPU address {@code address} (in vblank or forced blank). */
    static String poke(int address, int value) {
        return String.join("\n",
                "  lda #" + (address >> 8),
                "  sta $2006",
                "  lda #" + (address & 0xFF),
                "  sta $2006",
                "  lda #" + value,
                "  sta $2007",
                "");
    }

    /** Sprite 0 at ({@code x}, {@code y}) with {@code tile}, attributes 0. */
    static String sprite0(int y, int tile, int x) {
        return String.join("\n",
                "  lda #0",
                "  sta $2003",
                "  lda #" + y,
                "  sta $2004",
                "  lda #" + tile,
                "  sta $2004",
                "  lda #0",
                "  sta $2004",
                "  lda #" + x,
                "  sta $2004",
                "");
    }

    /** Scroll 0 and v = 0 (the top-left of $2000), then {@code mask} into $2001. */
    static String startRendering(int mask) {
        return String.join("\n",
                "  lda #0",
                "  sta $2005",
                "  sta $2005",
                "  sta $2006",
                "  sta $2006",
                "  lda #" + mask,
                "  sta $2001",
                "");
    }

    /**
     * Exactly {@code cycles} CPU cycles (0 or at least 2) of NOPs and one 3-cycle BIT, touching
     * nothing but the flags; no branch, so its length does not depend on where it lands.
     */
    static String delay(int cycles) {
        if (cycles == 1 || cycles < 0) {
            throw new IllegalArgumentException("no delay of " + cycles + " cycles");
        }
        StringBuilder s = new StringBuilder();
        int n = cycles;
        if ((n & 1) != 0) {
            s.append("  bit $00\n");
            n -= 3;
        }
        for (; n > 0; n -= 2) {
            s.append("  nop\n");
        }
        return s.toString();
    }

    /**
     * About {@code cycles} CPU cycles (at least 12) in Y-counted loops of 256 x 5 and a
     * remainder; the same code for the same argument, so a sweep keeps it fixed and moves only
     * a {@link #delay} after it.
     */
    static String longDelay(String label, int cycles) {
        StringBuilder s = new StringBuilder();
        int n = cycles;
        int i = 0;
        while (n > 1300) {
            s.append("  ldy #0\n").append(label).append(i).append(":\n  dey\n  bne ").append(label).append(i).append('\n');
            n -= 1281;
            i++;
        }
        final int k = Math.max(1, (n - 4) / 5);
        s.append("  ldy #").append(k).append('\n').append(label).append(i).append(":\n  dey\n  bne ")
                .append(label).append(i).append('\n');
        n -= 5 * k + 1;
        return s + delay(Math.max(0, n == 1 ? 2 : n));
    }

    /**
     * Runs {@code program.apply(n)} for n in {@code from..to} on fresh consoles, each until its
     * verdict ({@code frames} frames at most); returns the byte each recorded at {@code result}
     * (-1 for a run that gave no verdict).
     */
    static int[] sweep(int from, int to, int frames, int result, IntFunction<HardwareProgram> program) {
        final int[] out = new int[to - from + 1];
        for (int n = from; n <= to; n++) {
            final HardwareProgram p = program.apply(n);
            out[n - from] = p.run(frames) != 0 ? p.ram(result) : -1;
        }
        return out;
    }

    /** The phases {@link #syncPhase} offers: together they put an access on every dot. */
    static final int PHASES = 6;

    /** A program of a sweep: its sync phase (0 to {@link #PHASES} - 1) and its delay. */
    interface Swept {
        HardwareProgram of(int phase, int n);
    }

    /** {@link #sweep} for every phase, the results one after another. */
    static int[] sweepPhases(int from, int to, int frames, int result, Swept program) {
        final int runs = to - from + 1;
        final int[] out = new int[PHASES * runs];
        for (int phase = 0; phase < PHASES; phase++) {
            final int ph = phase;
            System.arraycopy(sweep(from, to, frames, result, n -> program.of(ph, n)), 0, out, phase * runs, runs);
        }
        return out;
    }

    /** CHR-ROM with tile 1 solid in both planes (colour 3) and the rest blank. */
    static byte[] solidTile1() {
        final byte[] chr = new byte[0x2000];
        for (int i = 0; i < 16; i++) {
            chr[0x10 + i] = (byte) 0xFF;
        }
        return chr;
    }
}
