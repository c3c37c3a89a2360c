package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.ppu.Region;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The time from one vertical blank NMI to the next, counted by a program as the hardware tests
 * count it: a loop of known length runs from the first NMI until the second interrupts it.
 * With rendering off a frame is 262 x 341 dots on NTSC (29780 2/3 CPU cycles), 312 x 341 on
 * PAL and Dendy (33247.5 and 35464 CPU cycles: 3.2 and 3 dots per cycle), so the count tells the
 * regions apart by hundreds of iterations.
 */
class FrameLengthTest {
    /**
     * The first NMI zeroes a 16-bit count and runs the loop inside its handler (11 cycles an
     * iteration, 15 when the low byte wraps); the second NMI interrupts it, records the count at
     * $20-$21 and passes.
     */
    private static final String PROGRAM = String.join("\n",
            "reset:",
            "  sei",
            "  cld",
            "  ldx #$FF",
            "  txs",
            "  jsr wait_vblank",
            "  jsr wait_vblank",
            "  lda #$80",
            "  sta $2000",
            "idle:",
            "  jmp idle",
            "nmi:",
            "  lda $12",
            "  bne second",
            "  inc $12",
            "  lda #0",
            "  sta $10",
            "  sta $11",
            "count:",
            "  inc $10",
            "  bne count_next",
            "  inc $11",
            "count_next:",
            "  jmp count",
            "second:",
            "  lda $10",
            "  sta $20",
            "  lda $11",
            "  sta $21",
            "  jmp pass");

    /** CPU cycles of a frame with rendering off. */
    private static double frameCycles(Region region) {
        return (double) region.lines * 341 * region.ppuDivider / region.cpuDivider;
    }

    @ParameterizedTest
    @EnumSource(Region.class)
    void nmiToNmiIsTheRegionsFrame(Region region) {
        HardwareProgram p = HardwareProgram.of(PROGRAM, region);
        assertEquals(HardwareProgram.PASS, p.run(10));
        int n = p.ram(0x20) | p.ram(0x21) << 8;
        // The loop's cycles, plus the 7-cycle NMI entry and the handler's 16 cycles before the loop.
        double counted = 11.0 * n + 4 * (n >> 8) + 7 + 16;
        double frame = frameCycles(region);
        assertTrue(Math.abs(counted - frame) <= 15, region + ": " + n + " iterations = " + counted
                + " cycles, a frame is " + frame);
    }
}
