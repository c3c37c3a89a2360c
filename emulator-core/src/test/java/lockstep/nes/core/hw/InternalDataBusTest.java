package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.input.Controllers;
import org.junit.jupiter.api.Test;

/**
 * The CPU's two data buses: a $4015 read drives the 2A03's internal bus only, so the external
 * bus (open bus) keeps the last value driven on it, and $4015's undriven bit 5 reads the internal
 * bus back. Indexed reads crossing a page read the wrong page first; that dummy read drives the
 * bus like any other read, and an unmapped real read then returns what it left.
 */
class InternalDataBusTest {
    /**
     * A DMC fetch halting {@code LDA $4015}: the halt and alignment cycles re-read $4015 (their
     * bit 5 the operand's high byte's, clear), and a fetch from an address whose low 5 bits are
     * $15 conflicts with the register: the 2A03 reads $4015 onto its internal bus while the
     * cartridge drives the sample byte on the external one. The CPU's own read then finds the
     * status byte on the internal bus, bit 5 clear, not the sample byte ($FF at $C015; the other
     * bytes of the 33-byte looping sample at $C000 are $00). The program runs 32 {@code ORA $4015}
     * in a row, 8,192 times (about 1.2 million cycles: the sample's 14,256-cycle period walks
     * through every phase of the loop), and ORs every read into $30.
     */
    @Test
    void aDmcFetchConflictingWithA4015ReadCannotChangeTheInternalBus() {
        StringBuilder sample = new StringBuilder(".org $C000\n.byte ");
        for (int i = 0; i < 33; i++) {
            sample.append(i == 0x15 ? "$FF" : "$00").append(i < 32 ? ", " : "\n");
        }
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "  lda #$40",
                "  sta $4017",
                "  lda #$4F", // loop, fastest rate, no IRQ
                "  sta $4010",
                "  lda #0",
                "  sta $4012", // $C000
                "  sta $30",
                "  lda #2",
                "  sta $4013", // 33 bytes
                "  lda #$10",
                "  sta $4015",
                "  ldy #32",
                "  ldx #0",
                "loop:",
                "  lda #0",
                "  ora $4015\n".repeat(32), // nearly a quarter of the cycles read $4015, their bits ORed into A
                "  ora $30",
                "  sta $30",
                "  dex",
                "  bne loop",
                "  dey",
                "  bne loop",
                "  lda #0",
                "  sta $4015",
                "  jmp pass",
                sample.toString()));
        assertEquals(HardwareProgram.PASS, p.run(60));
        assertEquals(0, p.ram(0x30) & 0x20, "bit 5 of every $4015 read");
    }

    /**
     * {@code LDA $40F5,X} (X = $20) dummy-reads $4015 on the wrong page, then reads unmapped
     * $4115: that returns the external bus, still the operand's high byte $40, not the status byte
     * (pulse 1 playing: bit 0 set) the dummy read put on the internal bus.
     */
    @Test
    void aStatusReadLeavesTheExternalBusAlone() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "  lda #$01",
                "  sta $4015",
                "  lda #$F8",
                "  sta $4003", // pulse 1's length counter loaded: $4015 bit 0 set
                "  lda $4015",
                "  sta $30",
                "  ldx #$20",
                "  lda $40F5,x",
                "  sta $31",
                "  jmp pass"));
        assertEquals(HardwareProgram.PASS, p.run(5));
        assertEquals(0x01, p.ram(0x30) & 0x01, "pulse 1 plays");
        assertEquals(0x40, p.ram(0x31), "open bus after the dummy $4015 read");
    }

    /**
     * Page crossings: {@code LDA $50F0,X} dummy-reads unmapped $5010 and reads unmapped $5110,
     * both the operand's high byte $50 (the bus is not the new high byte); {@code LDA $40F6,X}
     * dummy-reads the controller port, which drives bits 0-4 (A pressed: bit 0), and the unmapped
     * real read returns that byte with the port's undriven bits 5-7 from before ($40).
     */
    @Test
    void anIndexedReadsDummyReadOfTheWrongPageDrivesTheBusForTheRealOne() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "  ldx #$20",
                "  lda $50F0,x",
                "  sta $30",
                "  lda #1",
                "  sta $4016",
                "  lda #0",
                "  sta $4016",
                "  lda $40F6,x",
                "  sta $31",
                "  jmp pass"));
        p.console().setButtons(0, Controllers.A);
        assertEquals(HardwareProgram.PASS, p.run(5));
        assertEquals(0x50, p.ram(0x30));
        assertEquals(0x41, p.ram(0x31));
    }
}
