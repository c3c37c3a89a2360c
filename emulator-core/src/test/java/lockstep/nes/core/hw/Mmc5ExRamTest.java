package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The MMC5's ExRAM as the CPU sees it: mode 2 is RAM, mode 3 read-only; in modes 0 and 1 it
 * reads as open bus and a write while the PPU does not render stores 0.
 */
class Mmc5ExRamTest {
    @Test
    void cpuAccessInEachMode() {
        HardwareProgram p = HardwareProgram.mmc5(String.join("\n",
                "reset:",
                "  lda #2",
                "  sta $5104",
                "  lda #$A5",
                "  sta $5C20",
                "  lda $5C20",
                "  sta $10",
                "  lda #3",
                "  sta $5104",
                "  lda #$11",
                "  sta $5C20",
                "  lda $5C20",
                "  sta $11",
                "  lda #0",
                "  sta $5104",
                "  lda #$77",
                "  sta $5C20",
                "  lda #2",
                "  sta $5104",
                "  lda $5C20",
                "  sta $12",
                "  lda $10",
                "  cmp #$A5",
                "  bne bad",
                "  lda $11",
                "  cmp #$A5",
                "  bne bad",
                "  lda $12",
                "  bne bad",
                "  jmp pass",
                "bad:",
                "  lda #2",
                "  jmp fail_a"), new byte[0x2000]);
        assertEquals(HardwareProgram.PASS, p.run(2), "mode 2 " + p.ram(0x10) + ", mode 3 " + p.ram(0x11)
                + ", mode 0 outside rendering " + p.ram(0x12));
    }
}
