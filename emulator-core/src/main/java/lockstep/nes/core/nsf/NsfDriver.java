package lockstep.nes.core.nsf;

import lockstep.nes.core.demo.Assembler;

/**
 * The player program an NSF board serves at $4100-$41EF (a page no sound chip uses), with its
 * registers at $41F0-$41FF. At reset it sets the machine up as the NSF format promises an init
 * routine (NESdev "NSF": RAM cleared, the APU's $4000-$4013 zero, $4015 = $0F, $4017 = $40, the
 * song in A, 0 NTSC / 1 PAL in X), calls init, starts the play timer, then calls play each time
 * the timer has elapsed (polled, so no interrupt of the tune's is disturbed; a play routine
 * that overruns its period is called again at once, as on hardware players).
 */
final class NsfDriver {
    /** Read: the song (0-based) to init. */
    static final int SONG = 0x41F0;
    /** Read: 0 NTSC, 1 PAL (X for init). */
    static final int REGION = 0x41F1;
    /** Read: bit 7 set once the play period elapsed since the last read (the read clears it). */
    static final int TIMER = 0x41F2;
    /** Write: 1 starts the play timer. */
    static final int START = 0x41F3;
    /** Read: JMP init (three bytes). */
    static final int INIT = 0x41F4;
    /** Read: JMP play (three bytes). */
    static final int PLAY = 0x41F7;
    /** Where the program starts (the reset vector). */
    static final int RESET = 0x4100;

    private static final Assembler.Program PROGRAM = Assembler.assemble(String.join("\n",
            ".org $4100",
            "reset:",
            "  sei",
            "  cld",
            "  ldx #$FF",
            "  txs",
            "  lda #0",
            "  sta $2000",
            "  sta $2001",
            "  tax",
            "clear:",
            "  sta $00,x",
            "  sta $0100,x",
            "  sta $0200,x",
            "  sta $0300,x",
            "  sta $0400,x",
            "  sta $0500,x",
            "  sta $0600,x",
            "  sta $0700,x",
            "  inx",
            "  bne clear",
            "  ldx #$13",
            "apu:",
            "  sta $4000,x",
            "  dex",
            "  bpl apu",
            "  sta $4015",
            "  lda #$0F",
            "  sta $4015",
            "  lda #$40",
            "  sta $4017",
            "  lda $41F0",
            "  ldx $41F1",
            "  jsr $41F4",
            "  lda #1",
            "  sta $41F3",
            "wait:",
            "  bit $41F2",
            "  bpl wait",
            "  jsr $41F7",
            "  jmp wait",
            "vector_rti:",
            "  rti",
            ""));

    /** The program's bytes for $4100-$41EF. */
    static final byte[] CODE = PROGRAM.image(0x4100, 0xF0, 0xEA);
    /** Where NMI and IRQ point: an RTI (the driver enables neither). */
    static final int RTI = PROGRAM.symbol("vector_rti");

    private NsfDriver() {
    }
}
