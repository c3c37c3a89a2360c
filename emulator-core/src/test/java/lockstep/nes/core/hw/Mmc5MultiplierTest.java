package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The MMC5's unsigned 8x8 multiplier: $5205 and $5206 take the factors and give the product. */
class Mmc5MultiplierTest {
    @Test
    void theProductReadsBackAtOnce() {
        HardwareProgram p = HardwareProgram.mmc5(String.join("\n",
                "reset:",
                "  lda #$C8",
                "  sta $5205",
                "  lda #$7B",
                "  sta $5206",
                "  lda $5205",
                "  sta $10",
                "  lda $5206",
                "  sta $11",
                "  lda #$FF",
                "  sta $5205",
                "  sta $5206",
                "  lda $5205",
                "  sta $12",
                "  lda $5206",
                "  sta $13",
                "  lda $10",
                "  cmp #$18",
                "  bne bad",
                "  lda $11",
                "  cmp #$60",
                "  bne bad",
                "  lda $12",
                "  cmp #$01",
                "  bne bad",
                "  lda $13",
                "  cmp #$FE",
                "  bne bad",
                "  jmp pass",
                "bad:",
                "  lda #2",
                "  jmp fail_a"), new byte[0x2000]);
        assertEquals(HardwareProgram.PASS, p.run(2), "products " + p.ram(0x10) + "," + p.ram(0x11) + " "
                + p.ram(0x12) + "," + p.ram(0x13));
        assertEquals(200 * 123, p.ram(0x10) | p.ram(0x11) << 8);
        assertEquals(255 * 255, p.ram(0x12) | p.ram(0x13) << 8);
    }
}
