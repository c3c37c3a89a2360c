package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.state.CycleDigest;
import lockstep.nes.core.state.Snapshots;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same-thread lockstep's whole-instruction step ({@link PairStepper}): recording every
 * cycle of a whole instruction changes nothing (both engines end each frame in the state of an
 * engine stepped one cycle at a time), most cycles go through it, and a difference between the
 * engines is found by the instruction it shows in.
 */
class PairStepperTest {

    private static Cartridge cart(String rom) throws Exception {
        return Cartridge.load(TestRoms.require(rom));
    }

    /** Steps the pair as the verifier does until the frame ends; returns the cycles run as whole instructions. */
    private static long frame(Console a, Console b, CycleDigest da, CycleDigest db, PairStepper pair) {
        long whole = 0;
        long frame = a.frame();
        while (a.frameAfterCycle() == frame) {
            int n = pair.stepInstruction();
            assertTrue(n >= 0, "identical engines found different by cycle " + a.cycles());
            if (n > 0) {
                whole += n;
            } else {
                a.runCycle();
                b.runCycle();
                assertTrue(!da.differsFrom(db), "identical engines found different at cycle " + a.cycles());
            }
        }
        return whole;
    }

    @ParameterizedTest
    @ValueSource(strings = {"spritecans-2011/spritecans.nes", "other/BladeBuster.nes", "instr_test-v5/rom_singles/03-immediate.nes"})
    void tracedWholeInstructionsLeaveTheStateOfCycleByCycle(String rom) throws Exception {
        Cartridge cart = cart(rom);
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        Console solo = Console.create(cart);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        PairStepper pair = new PairStepper(a, b);
        long whole = 0;
        for (int f = 0; f < 90; f++) {
            whole += frame(a, b, da, db, pair);
            while (solo.cycles() < a.cycles()) {
                solo.runCycle();
            }
            String expected = new Snapshots(solo).stateHash();
            assertEquals(expected, new Snapshots(a).stateHash(), "frame " + f);
            assertEquals(expected, new Snapshots(b).stateHash(), "frame " + f);
        }
        assertTrue(whole > a.cycles() / 2, "whole instructions ran " + whole + " of " + a.cycles() + " cycles");
    }

    /** Two engines of spritecans stepped together for 20 frames, then to where both can run a whole instruction. */
    private static Console[] pairAtWholeInstruction() throws Exception {
        Cartridge cart = cart("spritecans-2011/spritecans.nes");
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        PairStepper pair = new PairStepper(a, b);
        for (int f = 0; f < 20; f++) {
            frame(a, b, da, db, pair);
        }
        while (!(a.canRunWholeInstruction() && b.canRunWholeInstruction())) {
            a.runCycle();
            b.runCycle();
        }
        return new Console[] {a, b};
    }

    @ParameterizedTest
    @ValueSource(ints = {0x000, 0x0FF, 0x1FD, 0x7FF})
    void aRamDifferenceBetweenInstructionsIsLeftToTheCycleCheck(int address) throws Exception {
        Console[] p = pairAtWholeInstruction();
        Console a = p[0];
        Console b = p[1];
        b.ram().write(address, b.ram().read(address) ^ 0x10);
        PairStepper pair = new PairStepper(a, b);
        long cycle = a.cycles();
        assertEquals(0, pair.stepInstruction(), "engines that differ are not stepped as a whole");
        assertEquals(cycle, a.cycles());
        a.runCycle();
        b.runCycle();
        assertTrue(new CycleDigest(a).differsFrom(new CycleDigest(b)));
    }

    /** B reads another opcode or operand than A (its board's PRG patched): a traced read differs. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aDifferenceInsideAnInstructionIsFoundByIt(int ahead) throws Exception {
        Console[] p = pairAtWholeInstruction();
        Console a = p[0];
        Console b = p[1];
        PairStepper pair = new PairStepper(a, b);
        Field prgField = Mapper.class.getDeclaredField("prg");
        prgField.setAccessible(true);
        byte[] prg = ((byte[]) prgField.get(b.mapper())).clone();
        int offset = (a.cpu().address() + ahead - 0x8000) % prg.length;
        prg[offset] ^= 0x01;
        prgField.set(b.mapper(), prg);
        assertEquals(-1, pair.stepInstruction());
    }
}
