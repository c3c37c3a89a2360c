package lockstep.nes.desktop.debug;

import lockstep.nes.core.hw.HardwareProgram;

/**
 * A machine whose PPU contents are known: CHR tiles 1-3 (solid colour 1; left half 2, right
 * half 3; a diagonal of colour 1), a palette whose entry i of palette p is $p0 + i, tiles in
 * the first nametable row, an attribute byte giving each quadrant its own palette, sprite 0
 * (tile 3, flipped horizontally, palette 5) and a scroll of (12, 20). Rendering stays off.
 */
final class KnownMachine {
    private KnownMachine() {
    }

    static byte[] chr() {
        byte[] chr = new byte[0x2000];
        for (int row = 0; row < 8; row++) {
            chr[0x10 + row] = (byte) 0xFF;          // tile 1: low plane set -> colour 1
            chr[0x20 + row] = 0x0F;                 // tile 2: low plane right half
            chr[0x28 + row] = (byte) 0xFF;          //         high plane all -> 2 left, 3 right
            chr[0x30 + row] = (byte) (0x80 >> row); // tile 3: diagonal of colour 1
        }
        return chr;
    }

    static HardwareProgram program() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "  jsr wait_vblank",
                "  jsr wait_vblank",
                "  lda #$3F",
                "  sta $2006",
                "  lda #$00",
                "  sta $2006",
                "  ldx #0",
                "pal:",
                "  lda palette,x",
                "  sta $2007",
                "  inx",
                "  cpx #32",
                "  bne pal",
                "  lda #$20",
                "  sta $2006",
                "  lda #$00",
                "  sta $2006",
                "  lda #1",
                "  sta $2007",
                "  lda #2",
                "  sta $2007",
                "  lda #1",
                "  sta $2007",
                "  lda #$23",
                "  sta $2006",
                "  lda #$C0",
                "  sta $2006",
                "  lda #$E4",
                "  sta $2007",
                "  lda #0",
                "  sta $2003",
                "  lda #$20",
                "  sta $2004",
                "  lda #3",
                "  sta $2004",
                "  lda #$41",
                "  sta $2004",
                "  lda #$30",
                "  sta $2004",
                "  lda #0",
                "  sta $2000",
                "  lda #12",
                "  sta $2005",
                "  lda #20",
                "  sta $2005",
                "marker:",
                "  lda #$5A",
                "  sta $0345",
                "  jmp pass",
                "palette:",
                "  .byte $0F,$01,$02,$03, $0F,$11,$12,$13, $0F,$21,$22,$23, $0F,$31,$32,$33",
                "  .byte $0F,$05,$06,$07, $0F,$15,$16,$17, $0F,$25,$26,$27, $0F,$35,$36,$37"), chr());
        return p;
    }
}
