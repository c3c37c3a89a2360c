package lockstep.nes.core;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.chain.PairStepper;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same-thread lockstep's chained stretches ({@link PairStepper}): folding every cycle into a
 * chain changes nothing (both engines end each frame in the state, picture and audio of a single
 * engine), nearly every cycle goes through them, and a difference between the engines is found
 * by the stretch it shows in, even one that heals before the stretch ends.
 */
class PairStepperTest {

    private static Cartridge cart(String rom) throws Exception {
        return rom.equals("demo") ? DemoRom.cartridge() : Cartridge.load(TestRoms.require(rom));
    }

    /**
     * Steps the pair as the verifier does until the frame ends (stretches, single cycles where
     * one cannot start); returns the cycles run in stretches.
     */
    static long frame(Console a, Console b, CycleDigest da, CycleDigest db, PairStepper pair) {
        long chained = 0;
        long frame = a.frame();
        while (a.frameAfterCycle() == frame) {
            long n = pair.stepStretch(Long.MAX_VALUE);
            assertTrue(n >= 0, "identical engines found different by cycle " + a.cycles());
            if (n > 0) {
                chained += n;
            } else {
                a.runCycle();
                b.runCycle();
                assertTrue(!da.differsFrom(db), "identical engines found different at cycle " + a.cycles());
            }
        }
        return chained;
    }

    private static short[] drain(Console c) {
        short[] all = new short[0];
        short[] buf = new short[4096];
        int n;
        while ((n = c.apu().audio().read(buf, 0, buf.length)) > 0) {
            int at = all.length;
            all = Arrays.copyOf(all, at + n);
            System.arraycopy(buf, 0, all, at, n);
        }
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"spritecans-2011/spritecans.nes", "other/BladeBuster.nes", "demo",
        "instr_test-v5/rom_singles/03-immediate.nes"})
    void chainedStretchesLeaveTheStateOfASingleEngine(String rom) throws Exception {
        Cartridge cart = cart(rom);
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        Console solo = Console.create(cart);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        CycleDigest ds = new CycleDigest(solo);
        PairStepper pair = new PairStepper(a, b);
        Random r = new Random(rom.hashCode());
        long chained = 0;
        for (int f = 0; f < 120; f++) {
            int buttons = r.nextInt(4) == 0 ? 1 << r.nextInt(8) : 0;
            a.setButtons(0, buttons);
            b.setButtons(0, buttons);
            solo.setButtons(0, buttons);
            chained += frame(a, b, da, db, pair);
            solo.runFrame();
            assertEquals(solo.cycles(), a.cycles(), "frame " + f + " ends on another cycle");
            assertEquals(ds.digest(), da.digest(), "frame " + f);
            assertEquals(ds.digest(), db.digest(), "frame " + f);
            assertArrayEquals(solo.ppu().frame(), a.ppu().frame(), "picture of frame " + f);
            assertArrayEquals(solo.ppu().frame(), b.ppu().frame(), "picture of frame " + f);
            short[] audio = drain(solo);
            assertArrayEquals(audio, drain(a), "audio of frame " + f);
            assertArrayEquals(audio, drain(b), "audio of frame " + f);
        }
        String expected = new Snapshots(solo).stateHash();
        assertEquals(expected, new Snapshots(a).stateHash());
        assertEquals(expected, new Snapshots(b).stateHash());
        assertTrue(chained > a.cycles() * 9 / 10, "stretches ran " + chained + " of " + a.cycles() + " cycles");
    }

    /** Two engines of spritecans stepped together for 20 frames and some cycles into the next. */
    private static Console[] pairMidFrame() throws Exception {
        Cartridge cart = cart("spritecans-2011/spritecans.nes");
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        PairStepper pair = new PairStepper(a, b);
        for (int f = 0; f < 20; f++) {
            frame(a, b, da, db, pair);
        }
        for (int i = 0; i < 5000; i++) {
            a.runCycle();
            b.runCycle();
        }
        return new Console[] {a, b};
    }

    @ParameterizedTest
    @ValueSource(ints = {0x000, 0x0FF, 0x1FD, 0x7FF})
    void aRamDifferenceBeforeAStretchIsLeftToTheCycleCheck(int address) throws Exception {
        Console[] p = pairMidFrame();
        Console a = p[0];
        Console b = p[1];
        b.ram().write(address, b.ram().read(address) ^ 0x10);
        PairStepper pair = new PairStepper(a, b);
        long cycle = a.cycles();
        assertEquals(0, pair.stepStretch(Long.MAX_VALUE), "engines that differ are not stepped as a stretch");
        assertEquals(cycle, a.cycles());
        a.runCycle();
        b.runCycle();
        assertTrue(new CycleDigest(a).differsFrom(new CycleDigest(b)));
    }

    @Test
    void aStretchStopsAtItsLimit() throws Exception {
        Console[] p = pairMidFrame();
        PairStepper pair = new PairStepper(p[0], p[1]);
        long limit = p[0].cycles() + 1001;
        assertEquals(1001, pair.stepStretch(limit));
        assertEquals(limit, p[1].cycles());
        assertEquals(0, pair.stepStretch(limit), "nothing to run up to a limit already reached");
    }

    /** B reads another opcode or operand than A (its board's PRG patched): the stretch differs. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aDifferenceInsideAStretchIsFoundByIt(int ahead) throws Exception {
        Console[] p = pairMidFrame();
        Console a = p[0];
        Console b = p[1];
        while (!a.cpu().atInstructionStart()) {
            a.runCycle();
            b.runCycle();
        }
        PairStepper pair = new PairStepper(a, b);
        Field prgField = Mapper.class.getDeclaredField("prg");
        prgField.setAccessible(true);
        byte[] prg = ((byte[]) prgField.get(b.mapper())).clone();
        int offset = (a.cpu().address() + ahead - 0x8000) % prg.length;
        prg[offset] ^= 0x01;
        prgField.set(b.mapper(), prg);
        assertEquals(-1, pair.stepStretch(Long.MAX_VALUE));
    }

    /**
     * B reads one operand patched, differs from A for some cycles (one cycle: the operand read
     * only, the result the same; or until the program overwrites the RAM byte B stored
     * differently), then equals it again before the frame ends: only the chain, which holds
     * every cycle, can show it; the stretch over that frame is found different.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aDifferenceThatHealsInsideAStretchIsFoundByIt(boolean reachesRam) throws Exception {
        Cartridge cart = cart("spritecans-2011/spritecans.nes");
        TransientPatch t = TransientPatch.find(cart, 30, reachesRam);
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        TransientPatch.patch(b, t.prgOffset());
        PairStepper pair = new PairStepper(a, b);
        long found = -1;
        while (a.cycles() < t.frameEnd()) {
            long n = pair.stepStretch(Long.MAX_VALUE);
            assertTrue(n != 0, "a stretch can start at every frame (cycle " + a.cycles() + ")");
            if (n < 0) {
                found = a.cycles();
                break;
            }
        }
        assertTrue(found >= t.firstCycle(), t + ": found at " + found);
        assertTrue(found <= t.frameEnd(), "found within its frame: " + found + ", frame ends at " + t.frameEnd());
    }

    /**
     * A difference that heals and shows through one fold of the chain only (see
     * {@link PlantedDifference}): stepped cycle by cycle it is there and gone within the first
     * frame, and the trace says which kind of fold could see it; the stretch over that frame
     * finds it. Each case fails when its fold is taken out of {@link lockstep.nes.core.chain.ChainedRun}: the
     * access of a cycle run alone (not DMA): SINGLE_CYCLE_READ; the access of a DMA cycle:
     * none alone (see PlantedDifference); the counted parts: COUNTED_PARTS and PARTS_DURING_DMA; the counted parts
     * after the cycles that change them, leaving them at instruction boundaries only:
     * PARTS_DURING_DMA. (OAM_DMA_READ is seen by both the DMA access and the parts after it.)
     */
    @ParameterizedTest
    @EnumSource(PlantedDifference.class)
    void aDifferenceOnlyOneFoldSeesIsFoundByTheStretch(PlantedDifference p) throws Exception {
        PlantedDifference.Trace t = p.trace();
        assertTrue(t.first() >= 0, p + " makes the engines differ: " + t);
        assertTrue(t.last() < t.frameEnd(), p + " heals before its frame ends: " + t);
        switch (p) {
            case SINGLE_CYCLE_READ -> assertEquals(List.of(1, 0, 0), List.of(t.accesses(), t.dmaAccesses(), t.boundaries()),
                    "one access differs, on a cycle no DMA takes, and no instruction boundary: " + t);
            case OAM_DMA_READ -> assertTrue(t.accesses() == 0 && t.dmaAccesses() > 0 && t.boundaries() == 0,
                    "only DMA cycles' accesses differ: " + t);
            case COUNTED_PARTS -> assertTrue(t.accesses() == 0 && t.dmaAccesses() == 0 && t.boundaries() > 0,
                    "no access differs, the parts at instruction boundaries do: " + t);
            case PARTS_DURING_DMA -> assertEquals(List.of(0, 0, 0), List.of(t.accesses(), t.dmaAccesses(), t.boundaries()),
                    "no access differs, nor the parts at any instruction boundary: " + t);
        }
        Cartridge cart = p.cartridge();
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        p.plant(b);
        assertEquals(-1, new PairStepper(a, b).stepStretch(Long.MAX_VALUE), p + ": " + t);
        assertTrue(a.cycles() >= t.first(), "found by the stretch over it: " + a.cycles() + ", " + t);
    }

    /** Stretches allocate nothing per frame (counted with the JVM's per-thread allocation counter). */
    @Test
    void stretchesAllocateNothing() throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled(),
                "no per-thread allocation counter");
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) mx;
        Cartridge cart = cart("demo");
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        PairStepper pair = new PairStepper(a, b);
        long[] bytes = new long[1];
        for (int round = 0; round < 5; round++) {
            long b0 = t.getCurrentThreadAllocatedBytes();
            long b1 = t.getCurrentThreadAllocatedBytes();
            for (int f = 0; f < 60; f++) {
                long frame = a.frameAfterCycle();
                while (a.frameAfterCycle() == frame) {
                    if (pair.stepStretch(Long.MAX_VALUE) <= 0) {
                        throw new AssertionError("identical engines found different by cycle " + a.cycles());
                    }
                }
            }
            bytes[0] = (t.getCurrentThreadAllocatedBytes() - b1) - (b1 - b0);
        }
        assertEquals(0, bytes[0], "bytes allocated in 60 frames of stretches");
    }
}
