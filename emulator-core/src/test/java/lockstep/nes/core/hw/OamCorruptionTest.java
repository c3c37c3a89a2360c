package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rendering switched off during a line's secondary OAM clear (dots 0-63) leaves the OAM row the
 * clear had reached to be overwritten with row 0's 8 bytes when rendering is switched on again;
 * switched off during the evaluation (dots 64-255) it leaves nothing. The program switches
 * rendering off early or late in line $50, counts the OAM rows (1-31) equal to row 0 with
 * rendering still off ($10), switches rendering on and off again and counts again ($11).
 */
class OamCorruptionTest {

    private static String program(int extraDelay) {
        return String.join("\n",
                SpritePrograms.PROLOGUE,
                "  ldx #7",
                "row0:",
                "  lda row0_bytes,x",
                "  sta $0200,x",
                "  dex",
                "  bpl row0",
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #$18",
                "  sta $2001",
                "  jsr wait_vblank",
                "  ldx #99",
                "  jsr delay_lines",
                "  ldx #" + (16 + extraDelay),
                "fine:",
                "  dex",
                "  bne fine",
                "  lda #0",
                "  sta $2001",
                "  jsr count_rows",
                "  sta $10",
                "  lda #0",
                "  sta $2003",
                "  lda #$18",
                "  sta $2001",
                "  nop",
                "  nop",
                "  lda #0",
                "  sta $2001",
                "  jsr count_rows",
                "  sta $11",
                "  jmp pass",
                // Rows 1-31 of OAM (read with rendering off) equal to row 0 as written ($0200-$0207).
                "count_rows:",
                "  lda #0",
                "  sta $12",
                "  ldx #8",
                "cr_row:",
                "  ldy #0",
                "  lda #1",
                "  sta $13",
                "cr_byte:",
                "  stx $2003",
                "  lda $2004",
                "  cmp $0200,y",
                "  beq cr_same",
                "  lda #0",
                "  sta $13",
                "cr_same:",
                "  inx",
                "  iny",
                "  cpy #8",
                "  bne cr_byte",
                "  lda $13",
                "  beq cr_next",
                "  inc $12",
                "cr_next:",
                "  cpx #0",
                "  bne cr_row",
                "  lda $12",
                "  rts",
                "row0_bytes:",
                ".byte $11, $22, $03, $44, $55, $66, $E3, $88",
                SpritePrograms.ROUTINES);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "off during the secondary OAM clear, 0,  1",
        "off during the evaluation,          25, 0",
    })
    void aRowTakesRowZeroWhenRenderingStartsAgain(String name, int extraDelay, int corruptedAfter) {
        HardwareProgram p = HardwareProgram.of(program(extraDelay));
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(0, p.ram(0x10), "rows equal to row 0 while rendering is off");
        assertEquals(corruptedAfter, p.ram(0x11), "rows equal to row 0 after rendering was on again");
    }
}
