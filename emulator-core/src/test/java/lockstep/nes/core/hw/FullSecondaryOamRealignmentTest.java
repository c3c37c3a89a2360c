package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A misaligned evaluation whose eighth copy fills secondary OAM with an X out of range (compared
 * as a Y) does not realign (+1, then AND $FC) but steps the sprite and byte index together (+5),
 * as a Y out of range does once secondary OAM is full. With 8x16 sprites and the in-range bytes
 * $43 (which attribute bytes keep: they have no bits 2-4), the program sets OAMADDR to $03 during
 * dots 1-64 of line $50: eight copies start at $03, $07, ... $1F, each Y and X slot in range
 * except the last X slot ($22). Realigned, the overflow search would start at $20, in range (the
 * overflow flag set); stepped, it starts at $27, and every byte from there on is out of range.
 * On the other lines (OAMADDR 0) only the sprite at $20 is in range, so no overflow. With byte
 * $27 in range too, the search finds it.
 */
class FullSecondaryOamRealignmentTest {

    private static String program(String access, int extra) {
        StringBuilder oam = new StringBuilder("  lda #$43\n");
        for (int a = 0x03; a <= 0x1F; a += 4) {
            oam.append("  sta $02").append(String.format("%02X", a)).append('\n');
        }
        for (int a = 0x06; a <= 0x1E; a += 4) {
            oam.append("  sta $02").append(String.format("%02X", a)).append('\n');
        }
        oam.append("  sta $0220\n");
        if (extra > 0) {
            oam.append("  sta $02").append(String.format("%02X", extra)).append('\n');
        }
        return String.join("\n",
                SpritePrograms.PROLOGUE,
                oam.toString(),
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #$20",
                "  sta $2000",
                "  lda #$1E",
                "  sta $2001",
                "  jsr wait_vblank",
                "  ldx #99",
                "  jsr delay_lines",
                "  ldx #16",
                "fine:",
                "  dex",
                "  bne fine",
                "  lda #$03",
                access,
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$20",
                "  sta $10",
                "  jmp pass",
                SpritePrograms.ROUTINES);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "OAMADDR $03: the search starts at $27 (out of range), sta $2003, 0,  0",
        "OAMADDR $03: the search starts at $27 (in range),     sta $2003, 39, 32",
        "no OAMADDR change: one sprite per line,                lda $2004, 39, 0",
    })
    void overflowSearchStartsFiveBytesOn(String name, String access, int extra, int overflow) {
        HardwareProgram p = HardwareProgram.of(program("  " + access, extra), SpritePrograms.solidTileOne());
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(overflow, p.ram(0x10), "sprite overflow flag");
    }
}
