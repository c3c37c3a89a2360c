package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * An OAMDATA ($2004) write while the PPU renders does not reach OAM but bumps OAMADDR to the
 * next sprite (+4, byte index cleared); during sprite evaluation OAMADDR is the evaluation's own
 * address, so the bump skips a sprite. Nine sprites are in range on line $57 only (eight at Y
 * $50, one at $57): a frame without the write sets the overflow flag, one with a write early in
 * line $57's evaluation skips a sprite and does not.
 */
class OamDataWriteDuringRenderingTest {

    private static String program(boolean write) {
        return String.join("\n",
                SpritePrograms.PROLOGUE,
                "  ldx #0",
                "  lda #$50",
                "setup:",
                "  sta $0200,x",
                "  inx",
                "  inx",
                "  inx",
                "  inx",
                "  cpx #32",
                "  bne setup",
                "  lda #$57",
                "  sta $0220",
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #$18",
                "  sta $2001",
                "  jsr wait_vblank",
                "  ldx #106",
                "  jsr delay_lines",
                "  ldx #18",
                "fine:",
                "  dex",
                "  bne fine",
                "probe:",
                write ? "  sta $2004" : "  lda $2004",
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$20",
                "  sta $10",
                "  jmp pass",
                SpritePrograms.ROUTINES);
    }

    @Test
    void nineSpritesOnALineSetTheOverflowFlag() {
        HardwareProgram p = HardwareProgram.of(program(false));
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(0x20, p.ram(0x10), "sprite overflow");
    }

    @Test
    void aWriteDuringEvaluationSkipsASprite() {
        HardwareProgram p = HardwareProgram.of(program(true));
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(0, p.ram(0x10), "sprite overflow after the write bumped OAMADDR past a sprite");
    }
}
