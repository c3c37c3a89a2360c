package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * What an OAMDATA ($2004) read returns while the PPU renders: the byte on the OAM bus on that
 * dot. A stream of reads 7 CPU cycles (21 dots) apart runs from the middle of a line through the
 * sprite fetches, dots 321-340 and 0, and the next line's secondary OAM clear: exactly one read
 * lands in the 21 dots 321-340 and 0, the last read before the first $FF of the clear.
 */
class OamBusDuringRenderingTest {

    /**
     * Eight sprites in range on line $57 (Y $50-$57, tiles $60-$67, X $80-$87) fill secondary
     * OAM; after the sprite fetches the OAM bus carries secondary OAM's first byte, Y $50, until
     * the clear starts on dot 1.
     */
    @Test
    void afterTheSpriteFetchesTheBusCarriesSecondaryOamsFirstByte() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                SpritePrograms.PROLOGUE,
                "  ldx #0",
                "setup:",
                "  txa",
                "  asl",
                "  asl",
                "  tay",
                "  txa",
                "  clc",
                "  adc #$50",
                "  sta $0200,y",
                "  adc #$10",
                "  sta $0201,y",
                "  txa",
                "  and #3",
                "  sta $0202,y",
                "  txa",
                "  clc",
                "  adc #$80",
                "  sta $0203,y",
                "  inx",
                "  cpx #8",
                "  bne setup",
                "  jsr wait_vblank",
                "  jsr oam_dma",
                "  lda #$18",
                "  sta $2001",
                "  jsr wait_vblank",
                "  ldx #107",
                "  jsr delay_lines",
                "probe:",
                SpritePrograms.readStream(24),
                // Oldest read at $01FF: find the first $FF, check the read before it.
                "  ldx #$FF",
                "find:",
                "  lda $0100,x",
                "  cmp #$FF",
                "  beq found",
                "  dex",
                "  cpx #$E7",
                "  bne find",
                "  lda #2",
                "  jmp fail_a",
                "found:",
                "  cpx #$FF",
                "  bne has_before",
                "  lda #4",
                "  jmp fail_a",
                "has_before:",
                "  lda $0101,x",
                "  sta $10",
                "  cmp #$50",
                "  beq ok",
                "  lda #3",
                "  jmp fail_a",
                "ok:",
                "  jmp pass",
                SpritePrograms.ROUTINES));
        int verdict = p.run(10);
        assertEquals(HardwareProgram.PASS, verdict, "the read on dots 321-340/0 returned $" + Integer.toHexString(p.ram(0x10)));
    }
}
