package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The DMC's implicit abort: a one-byte sample whose byte is fetched on the APU cycle before the
 * output unit's bit counter turns over restarts for 3 cycles (the turn-over then asks for a fetch
 * that is aborted), so $4015 reads it as playing right after its only byte was fetched. The
 * program starts the sample 600 times, each 1,289 cycles plus the DMA after the last (the phase
 * against the 432-cycle byte period walks through every value), reads $4015 right after each
 * fetch (the DMA halts that very read) and counts the reads that see bit 4 set.
 */
class DmcImplicitAbortTest {
    @Test
    void aOneByteSampleFetchedJustBeforeTheBitCounterTurnsOverReadsAsPlayingRightAfter() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                DmcSweep.SETUP,
                "  lda #0",
                "  sta $20",
                "  sta $21",
                "  lda #3", // 3 x 200 trials
                "  sta $22",
                "trial:",
                "  ldx #0",
                "drain:",
                "  dex",
                "  bne drain",
                "  lda #$10",
                "  sta $4015",
                "  lda $4015",
                "  and #$10",
                "  beq next",
                "  inc $20",
                "next:",
                "  inc $21",
                "  lda $21",
                "  cmp #200",
                "  bne trial",
                "  lda #0",
                "  sta $21",
                "  dec $22",
                "  bne trial",
                "  lda $20",
                "  beq none",
                "  jmp pass",
                "none:",
                "  lda #2",
                "  jmp fail_a"));
        int verdict = p.run(60);
        int seen = p.ram(0x20);
        assertEquals(HardwareProgram.PASS, verdict, "trials that read the sample as playing: " + seen);
        assertTrue(seen < 20, "only the phases at the turn-over restart the sample: " + seen);
    }
}
