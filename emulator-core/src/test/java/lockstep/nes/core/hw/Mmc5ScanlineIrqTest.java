package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import org.junit.jupiter.api.Test;

/**
 * The MMC5's scanline IRQ: with rendering on, the counter follows the PPU's lines and raises
 * the IRQ at the start of the line $5203 names; $5204 reads pending (bit 7) and in-frame (bit
 * 6), and the read acknowledges. In vertical blank the in-frame flag is clear. (The program
 * takes NMIs, as games do: the MMC5 sees the NMI vector fetch as the frame's end.)
 */
class Mmc5ScanlineIrqTest {
    private static final String PROGRAM = String.join("\n",
            "reset:",
            "  sei",
            "  ldx #$FF",
            "  txs",
            "  lda #$40",
            "  sta $4017",
            "  jsr wait_vblank",
            "  jsr wait_vblank",
            "  lda #$80",
            "  sta $2000",
            "  lda #$08",
            "  sta $2001",
            "  lda #100",
            "  sta $5203",
            "  lda #$80",
            "  sta $5204",
            "  jsr wait_vblank",
            "  lda $5204",
            "  sta $12",
            "  cli",
            "wait:",
            "  lda $13",
            "  cmp #3",
            "  bcc wait",
            "  sei",
            "  lda $12",
            "  and #$40",
            "  bne in_frame_in_vblank",
            "  lda $14",
            "  cmp #$C0",
            "  bne bad_status",
            "  lda $15",
            "  bne still_pending",
            "  jmp pass",
            "in_frame_in_vblank:",
            "  lda #2",
            "  jmp fail_a",
            "bad_status:",
            "  lda #3",
            "  jmp fail_a",
            "still_pending:",
            "  lda #4",
            "  jmp fail_a",
            "nmi:",
            "  rti",
            "irq:",
            "  pha",
            "  lda $5204",
            "  sta $14",
            "  lda $5204",
            "  and #$80",
            "  sta $15",
            "  inc $13",
            "  pla",
            "  rti");

    @Test
    void oneIrqPerFrameAtTheLineOfItsRegister() {
        HardwareProgram p = HardwareProgram.mmc5(PROGRAM, new byte[0x2000]);
        assertEquals(HardwareProgram.PASS, p.run(10), "status in vblank " + p.ram(0x12) + ", in the IRQ "
                + p.ram(0x14) + ", after acknowledging " + p.ram(0x15) + ", IRQs " + p.ram(0x13));
    }

    @Test
    void theIrqComesAtTheStartOfLine100() {
        HardwareProgram p = HardwareProgram.mmc5(PROGRAM, new byte[0x2000]);
        Console c = p.console();
        int rises = 0;
        boolean before = false;
        while (rises < 3 && c.cycles() < 300_000) {
            c.runCycle();
            final boolean now = c.mapper().irq();
            if (now && !before) {
                rises++;
                assertEquals(100, c.ppu().scanline(), "IRQ " + rises);
                assertTrue(c.ppu().dot() <= 6, "IRQ " + rises + " at dot " + c.ppu().dot());
            }
            before = now;
        }
        assertEquals(3, rises);
    }
}
