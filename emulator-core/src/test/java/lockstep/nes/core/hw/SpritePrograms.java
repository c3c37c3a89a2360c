package lockstep.nes.core.hw;

/**
 * Routines shared by the sprite test programs (assembled before {@link HardwareProgram#COMMON}):
 * {@code init} waits out the PPU's warm-up with rendering off; {@code fill_oam_page} sets the
 * OAM page at $0200 to $F8 (every sprite below the picture); {@code oam_dma} copies it to OAM
 * from OAMADDR 0; {@code fill_nametable} fills the first nametable with tile A;
 * {@code delay_lines} waits about X lines (115 CPU cycles each, for programs to place an access
 * on a line; the exact dot does not matter to the programs that use it).
 */
final class SpritePrograms {
    /** The start of every program: the stack, the PPU warmed up, the OAM page all $F8. */
    static final String PROLOGUE = String.join("\n",
            "reset:",
            "  sei",
            "  cld",
            "  ldx #$FF",
            "  txs",
            "  jsr init",
            "  jsr fill_oam_page",
            "");

    static final String ROUTINES = String.join("\n",
            "init:",
            "  lda #0",
            "  sta $2000",
            "  sta $2001",
            "  jsr wait_vblank",
            "  jsr wait_vblank",
            "  rts",
            "fill_oam_page:",
            "  lda #$F8",
            "  ldx #0",
            "fop_loop:",
            "  sta $0200,x",
            "  inx",
            "  bne fop_loop",
            "  rts",
            "oam_dma:",
            "  lda #0",
            "  sta $2003",
            "  lda #2",
            "  sta $4014",
            "  rts",
            "fill_nametable:",
            "  ldx #$20",
            "  stx $2006",
            "  ldx #$00",
            "  stx $2006",
            "  ldy #4",
            "fnt_outer:",
            "  ldx #0",
            "fnt_inner:",
            "  sta $2007",
            "  inx",
            "  bne fnt_inner",
            "  dey",
            "  bne fnt_outer",
            "  lda #0",
            "  sta $2005",
            "  sta $2005",
            "  rts",
            "delay_lines:",
            "  ldy #21",
            "dl_inner:",
            "  dey",
            "  bne dl_inner",
            "  nop",
            "  nop",
            "  dex",
            "  bne delay_lines",
            "  rts",
            "");

    /** CHR with tile 1 opaque in both planes (colour 3 on every pixel); the rest transparent. */
    static byte[] solidTileOne() {
        byte[] chr = new byte[0x2000];
        for (int i = 16; i < 32; i++) {
            chr[i] = (byte) 0xFF;
            chr[0x1000 + i] = (byte) 0xFF;
        }
        return chr;
    }

    /** {@code count} unrolled {@code lda $2004 / pha}: one OAMDATA read every 7 CPU cycles (21 dots). */
    static String readStream(int count) {
        return "  lda $2004\n  pha\n".repeat(count);
    }

    private SpritePrograms() {
    }
}
