package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DMC fetches while the CPU is halted on a read of an undriven APU address ($4000): the 2A03's
 * register block is enabled by the CPU's address bits 15-5, the register by the DMA address's
 * bits 4-0. A fetch from $xx16 or $xx17 then clocks that controller port and puts its driven
 * bits (D0-D4) on the bus with the sample byte in the undriven bits (D5-D7); the CPU's resumed
 * read of $4000 returns that byte.
 *
 * <p>Each trial plays a 241-byte sample from $C000 at the fastest rate while the program ORs
 * every {@code ORA $4000} read into A. The sample's bytes at $xx16 and $xx17 are $A0, all others
 * $00; both pads hold every button, so their D0 reads 1. An unhalted read returns $40 (the
 * operand's high byte); a read halted by a fetch of a $00 byte adds nothing; one halted by a
 * fetch at $xx16/$xx17 returns $A1. So each trial's A is $40 or $E1, never $E0 (the driven bits
 * ANDed with the sample, or the plain sample byte).
 */
class DmcRegisterConflictTest {
    @Test
    void aFetchFromAControllerRegisterIndexPutsThePortsBitsOverTheSampleByteOnTheBus() {
        List<String> triggers = DmcSweep.triggers();
        List<String> src = new ArrayList<>();
        src.add(String.join("\n",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "  lda #$40",
                "  sta $4017",
                "  lda #$0F",
                "  sta $4010",
                "  lda #0",
                "  sta $4012",
                "  lda #$0F",
                "  sta $4013",
                ""));
        for (int i = 0; i < triggers.size(); i++) {
            src.add(String.join("\n",
                    "  lda #1",
                    "  sta $4016",
                    "  lda #0",
                    "  sta $4016",
                    "  lda #$10",
                    triggers.get(i),
                    "  lda #0",
                    "  ldy #12",
                    "outer_" + i + ":",
                    "  ldx #0",
                    "inner_" + i + ":",
                    "  ora $4000\n  ora $4000\n  ora $4000\n  ora $4000",
                    "  ora $4000\n  ora $4000\n  ora $4000\n  ora $4000",
                    "  dex",
                    "  bne inner_" + i,
                    "  dey",
                    "  bne outer_" + i,
                    "  sta $" + Integer.toHexString(0x300 + i),
                    ""));
        }
        src.add("  jmp pass");
        src.add(CycleDelay.ROUTINE.replace(".org $E000", ".org $E800"));
        StringBuilder sample = new StringBuilder(".org $C000\n");
        for (int a = 0; a < 256; a++) {
            int low = a & 0x1F;
            sample.append("  .byte $").append(low == 0x16 || low == 0x17 ? "A0" : "00").append('\n');
        }
        src.add(sample.toString());
        HardwareProgram p = HardwareProgram.of(String.join("\n", src));
        p.console().setButtons(0, 0xFF);
        p.console().setButtons(1, 0xFF);
        assertEquals(HardwareProgram.PASS, p.run(120));
        int conflicts = 0;
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < triggers.size(); i++) {
            int v = p.ram(0x300 + i);
            seen.append(String.format("%02X ", v));
            if (v == 0xE1) {
                conflicts++;
            }
        }
        for (int i = 0; i < triggers.size(); i++) {
            int v = p.ram(0x300 + i);
            assertTrue(v == 0x40 || v == 0xE1, "trial " + i + ": " + seen);
        }
        assertTrue(conflicts > 0, "some trials halt a read on a fetch from $xx16/$xx17: " + seen);
    }
}
