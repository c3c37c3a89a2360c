package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sprite evaluation starts at whatever OAMADDR holds on dot 65, and the first sprite it
 * evaluates on a line is the one that can make a sprite 0 hit, whatever its index. The
 * background is opaque everywhere; OAM sprite 0 is below the picture. During dots 1-64 of line
 * $50 the program either bumps OAMADDR to sprite 1 (an OAMDATA write while rendering), sets it
 * to the misaligned $05 ($2003), or only reads $2004: the hit flag, read in the next vertical
 * blank, tells whether the evaluated sprite counted as sprite 0.
 */
class MisalignedOamEvaluationTest {

    /**
     * Sprite 1 is an opaque sprite at Y $50 (aligned case); in the misaligned case its bytes 1-3
     * and sprite 2's Y, read from $05 on, make one: Y $50, tile 1, attributes 0, X $80.
     */
    private static String program(boolean misaligned, String access) {
        return String.join("\n",
                SpritePrograms.PROLOGUE,
                "  lda #1",
                "  jsr fill_nametable",
                misaligned ? "  lda #$50\n  sta $0205\n  lda #$01\n  sta $0206\n  lda #$00\n  sta $0207\n"
                        + "  lda #$80\n  sta $0208\n  lda #$00\n  sta $0209"
                        : "  lda #$50\n  sta $0204\n  lda #$01\n  sta $0205\n  lda #$00\n  sta $0206\n"
                        + "  lda #$80\n  sta $0207",
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #$00",
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
                "  lda #$05",
                "probe:",
                access,
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$40",
                "  sta $10",
                "  jmp pass",
                SpritePrograms.ROUTINES);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "no OAMADDR change: sprite 1 is not first,      false, lda $2004, 0",
        "OAMDATA write bumps OAMADDR to sprite 1,       false, sta $2004, 64",
        "OAMADDR $05: bytes 5-8 make the first sprite,  true,  sta $2003, 64",
        "no OAMADDR change: bytes 5-8 are not a sprite, true,  lda $2004, 0",
    })
    void theFirstSpriteEvaluatedCanHit(String name, boolean misaligned, String access, int hit) {
        HardwareProgram p = HardwareProgram.of(program(misaligned, "  " + access), SpritePrograms.solidTileOne());
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(hit, p.ram(0x10), "sprite 0 hit flag");
    }
}
