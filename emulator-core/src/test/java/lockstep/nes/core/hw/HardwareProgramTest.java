package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HardwareProgramTest {
    @Test
    void reportsThePassVerdictAndRecordedBytes() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "  jsr wait_vblank",
                "  lda #$5A",
                "  sta $10",
                "  jmp pass"));
        assertEquals(HardwareProgram.PASS, p.run(5));
        assertEquals(0x5A, p.ram(0x10));
    }

    @Test
    void reportsAFailureCodeAndTimesOutWithoutAVerdict() {
        assertEquals(7, HardwareProgram.of("reset:\n  lda #7\n  jmp fail_a").run(2));
        assertEquals(0, HardwareProgram.of("reset:\n  jmp reset").run(2));
    }

    @Test
    void countsVblankNmis() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  jsr wait_vblank",
                "  lda #$80",
                "  sta $2000",
                "spin:",
                "  lda $11",
                "  cmp #3",
                "  bne spin",
                "  jmp pass",
                "nmi:",
                "  inc $11",
                "  rti"));
        assertEquals(HardwareProgram.PASS, p.run(10));
        assertEquals(3, p.ram(0x11));
    }
}
