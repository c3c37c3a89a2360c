package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A frame whose rendering starts with OAMADDR at 8 or more copies the 8 bytes of the OAM row
 * OAMADDR points into over row 0; below 8, or with rendering off, OAM stays as it is. The
 * program leaves OAMADDR at the given value after the OAM DMA, lets one frame start, and reads
 * row 0 back with rendering off into $10-$17.
 */
class OamAddressAtFrameStartTest {

    private static String program(int oamAddr, int mask) {
        return String.join("\n",
                SpritePrograms.PROLOGUE,
                "  ldx #7",
                "rows:",
                "  txa",
                "  sta $0200,x",
                "  ora #$40",
                "  sta $0228,x",
                "  dex",
                "  bpl rows",
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #" + oamAddr,
                "  sta $2003",
                "  lda #" + mask,
                "  sta $2001",
                "  jsr wait_vblank",
                "  lda #0",
                "  sta $2001",
                "  ldx #7",
                "read:",
                "  stx $2003",
                "  lda $2004",
                "  sta $10,x",
                "  dex",
                "  bpl read",
                "  jmp pass",
                SpritePrograms.ROUTINES);
    }

    @ParameterizedTest(name = "OAMADDR ${0}, mask ${1}")
    @CsvSource({"45, 24, 64", "4, 24, 0", "45, 0, 0"})
    void rowZeroAfterTheFrameStarts(int oamAddr, int mask, int copiedHigh) {
        HardwareProgram p = HardwareProgram.of(program(oamAddr, mask));
        assertEquals(HardwareProgram.PASS, p.run(10));
        for (int i = 0; i < 8; i++) {
            // Bytes 2 and 6 (attributes) read back without bits 2-4.
            int expected = (i | copiedHigh) & ((i & 3) == 2 ? 0xE3 : 0xFF);
            assertEquals(expected, p.ram(0x10 + i), "row 0 byte " + i);
        }
    }
}
