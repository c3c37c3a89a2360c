package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sprites on the picture's first lines, seen through sprite 0 hits over an opaque background. A
 * sprite at Y 0 draws from line 1. The pre-render line evaluates no sprites: its fetches take
 * what secondary OAM still holds, and show it on line 0 where the pre-render line's own Y
 * comparison finds it in range. Sprites left by line 239 never are (a sprite 0 at Y $EF does not
 * hit on line 0); a sprite 0 at Y 2 left by line 5, after which rendering was off until vertical
 * blank, is, and hits on line 0 before its own lines 3-10 come.
 */
class SpritesOnLineZeroTest {

    /**
     * Sprite 0 at {@code y}; $10 records the hit flag after the first rendered frame; the second
     * frame renders whole or only to line 5 ({@code offAtLine5}); $11 is the flag read on line
     * 1 of the third frame, before any sprite at Y 2 is reached.
     */
    private static String program(int y, boolean offAtLine5) {
        return String.join("\n",
                SpritePrograms.PROLOGUE,
                "  lda #1",
                "  jsr fill_nametable",
                "  lda #" + y,
                "  sta $0200",
                "  lda #1",
                "  sta $0201",
                "  lda #0",
                "  sta $0202",
                "  lda #$80",
                "  sta $0203",
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #$1E",
                "  sta $2001",
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$40",
                "  sta $10",
                offAtLine5 ? "  ldx #25\n  jsr delay_lines\n  ldx #19\nfine:\n  dex\n  bne fine\noff:\n  lda #0\n  sta $2001" : "",
                "  jsr wait_vblank",
                "  lda #$1E",
                "  sta $2001",
                "  ldx #21",
                "  jsr delay_lines",
                "  ldx #14",
                "line1:",
                "  dex",
                "  bne line1",
                "probe:",
                "  lda $2002",
                "  and #$40",
                "  sta $11",
                "  jmp pass",
                SpritePrograms.ROUTINES);
    }

    @ParameterizedTest(name = "Y {0}, rendering off from line 5: {1}")
    @CsvSource({
        "0,   false, 64, 0",
        "239, false, 0,  0",
        "2,   false, 64, 0",
        "2,   true,  64, 64",
    })
    void spriteZeroHits(int y, boolean offAtLine5, int firstFrame, int lineZero) {
        HardwareProgram p = HardwareProgram.of(program(y, offAtLine5), SpritePrograms.solidTileOne());
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(firstFrame, p.ram(0x10), "hit in the first frame");
        assertEquals(lineZero, p.ram(0x11), "hit on line 0 of the third frame");
    }
}
