package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;

/**
 * IRQ and NMI sequences run as a whole ({@link lockstep.nes.core.cpu.Cpu#runInterrupt}) equal
 * the CPU stepped one cycle at a time, NMI hijacking included, on {@link IrqLoopProgram}.
 *
 * <p>The program holds /IRQ low for good (a DMC sample with its IRQ on, never acknowledged),
 * so the CPU takes an IRQ after every RTI: an 18-cycle loop of sequence, handler and RTI. The
 * vertical-blank NMI lands at a phase of that loop that moves by 8 or 9 cycles a frame, so
 * over the frames it meets every cycle of the sequence: before the P push (the NMI takes the
 * vector), at it and after it (the IRQ's vector, the NMI next).
 */
class InterruptSequenceTest {
    private static final int FRAMES = 120;

    @Test
    void wholeSequencesEqualCycleByCycleInstructionByInstruction() throws RomFormatException {
        Cartridge cart = IrqLoopProgram.cartridge();
        Console fast = Console.create(cart);
        Console slow = Console.create(cart);
        CycleDigest fastDigest = new CycleDigest(fast);
        CycleDigest slowDigest = new CycleDigest(slow);
        long whole = 0;
        while (fast.frameAfterCycle() < FRAMES) {
            fast.runInstruction();
            while (slow.cycles() < fast.cycles()) {
                if (slow.cpu().atInterruptStart() && slow.wholeInstructionSafe()) {
                    whole++; // fast, in the same state here, ran this sequence whole
                }
                slow.runCycle();
            }
            if (fast.cpu().registers() != slow.cpu().registers() || fastDigest.digest() != slowDigest.digest()) {
                fail("instruction ending at cycle " + fast.cycles() + " differs\n  "
                        + String.join("\n  ", QuietCycleTest.diff(fast, slow)));
            }
        }
        assertTrue(whole > FRAMES * 1000L, "sequences run whole: " + whole);
        assertTrue(fast.ram().read(0x11) != 0 && fast.ram().read(0x12) != 0, "both handlers ran");
        // CLI takes effect after the next instruction: one INC, then IRQs for good.
        assertEquals(1, fast.ram().read(0x10), "the IRQ lets the main loop run once");
    }

    @Test
    void wholeSequencesEqualCycleByCycleFrameByFrame() throws RomFormatException {
        Cartridge cart = IrqLoopProgram.cartridge();
        Console fast = Console.create(cart);
        Console slow = Console.create(cart);
        CycleDigest fastDigest = new CycleDigest(fast);
        CycleDigest slowDigest = new CycleDigest(slow);
        int nmis = 0;
        for (int f = 1; f <= FRAMES; f++) {
            fast.runFrame();
            long frame = slow.frameAfterCycle();
            while (slow.frameAfterCycle() == frame) {
                slow.runCycle();
            }
            final int at = f;
            assertEquals(slow.cycles(), fast.cycles(), () -> "frame " + at + " ends on another cycle");
            assertEquals(slowDigest.digest(), fastDigest.digest(), () -> "frame " + at + " differs\n  "
                    + String.join("\n  ", QuietCycleTest.diff(fast, slow)));
            nmis = fast.ram().read(0x12);
        }
        assertTrue(nmis >= FRAMES - 2, "NMIs taken: " + nmis);
    }
}
