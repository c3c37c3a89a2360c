package lockstep.nes.core.hw;

/**
 * Assembly for cycle-exact delays in test programs: a long delay routine (placed on a page of its
 * own so that no branch in it crosses a page) and straight-line paddings of any length from 2
 * cycles, and an OAM DMA that aligns the CPU to the APU's get/put phase (the DMA ends on the same
 * phase whatever the phase it started on), so that the cycles after it have a known parity
 * against the APU's even though the program cannot see the absolute parity.
 */
final class CycleDelay {
    private CycleDelay() {
    }

    /** Cycles {@code jsr delay_long} takes, the JSR and RTS included. */
    static final int LONG = 29816;

    /**
     * The routine {@code delay_long} at $E000: 23 x 1,286 - 1 cycles of nested loops, 221 of a
     * third loop and 2 NOPs: {@link #LONG} cycles with the LDY, the JSR and the RTS.
     */
    static final String ROUTINE = String.join("\n",
            ".org $E000",
            "delay_long:",
            "  ldy #23",
            "dl_outer:",
            "  ldx #0",
            "dl_inner:",
            "  dex",
            "  bne dl_inner",
            "  dey",
            "  bne dl_outer",
            "  ldx #44",
            "dl_tail:",
            "  dex",
            "  bne dl_tail",
            "  nop",
            "  nop",
            "  rts",
            "");

    /** Straight-line code taking exactly {@code cycles} cycles (at least 2): NOPs and a zero-page BIT. */
    static String pad(int cycles) {
        if (cycles < 2) {
            throw new IllegalArgumentException("a padding takes at least 2 cycles: " + cycles);
        }
        StringBuilder out = new StringBuilder();
        if ((cycles & 1) != 0) {
            out.append("  bit $FE\n");
            cycles -= 3;
        }
        for (int i = 0; i < cycles / 2; i++) {
            out.append("  nop\n");
        }
        return out.toString();
    }

    /** An OAM DMA from page 2: the code after it starts on a fixed get/put phase. */
    static final String ALIGN = "  lda #$02\n  sta $4014\n";
}
