package lockstep.nes.core;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateDiff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole instructions ({@link lockstep.nes.core.cpu.Cpu#runInstruction}, used by
 * {@link Console#runInstruction} and {@link Console#runFrame} where it is safe) equal the CPU
 * stepped one cycle at a time ({@link Console#runCycle}): the whole machine's state (every
 * described field: registers, the CPU's internal latches, RAM, PPU, APU, DMA, board) after every
 * instruction, and the cycle count, state and picture after every frame, on test ROMs and on
 * every board running random code (random PPU, APU, DMA and board register traffic).
 */
class WholeInstructionTest {
    /** The index in {@code ranWhole} that records an interrupt sequence run as a whole. */
    private static final int INTERRUPT = 256;

    static Stream<String> roms() {
        return Stream.of(
                "other/nestest.nes",
                "instr_test-v5/rom_singles/01-basics.nes",
                "instr_test-v5/rom_singles/02-implied.nes",
                "instr_test-v5/rom_singles/07-abs_xy.nes",
                "instr_test-v5/rom_singles/09-ind_y.nes",
                "instr_test-v5/rom_singles/10-branches.nes",
                "instr_test-v5/rom_singles/11-stack.nes",
                "instr_test-v5/rom_singles/14-rti.nes",
                "instr_test-v5/rom_singles/16-special.nes",
                "cpu_interrupts_v2/rom_singles/1-cli_latency.nes",
                "cpu_interrupts_v2/rom_singles/2-nmi_and_brk.nes",
                "cpu_interrupts_v2/rom_singles/3-nmi_and_irq.nes",
                "cpu_interrupts_v2/rom_singles/4-irq_and_dma.nes",
                "cpu_interrupts_v2/rom_singles/5-branch_delays_irq.nes",
                "cpu_dummy_reads/cpu_dummy_reads.nes",
                "cpu_dummy_writes/cpu_dummy_writes_ppumem.nes",
                "sprdma_and_dmc_dma/sprdma_and_dmc_dma.nes",
                "dmc_dma_during_read4/dma_2007_read.nes",
                "other/BladeBuster.nes",
                "spritecans-2011/spritecans.nes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roms")
    void testRomsEqualCycleByCycle(String rom) throws IOException, RomFormatException {
        Cartridge cart = Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom)));
        Random r = new Random(rom.hashCode());
        boolean[] ranWhole = new boolean[257];
        int whole = assertSameEveryInstruction(rom, cart, 150_000, r, ranWhole);
        // These take IRQs clear of the APU's events, so some sequences run whole (the others'
        // interrupts come at frame-counter steps or DMA, which run them cycle by cycle).
        if (rom.contains("cli_latency") || rom.contains("irq_and_dma") || rom.contains("branch_delays_irq")) {
            assertTrue(ranWhole[INTERRUPT], rom + ": no interrupt sequence ran whole");
        }
        assertTrue(whole > 150_000 / 2, rom + ": only " + whole + " instructions ran whole (the test would prove little)");
        assertSameEveryFrame(rom, cart, 120, r);
    }

    @Test
    void demoRomEqualsCycleByCycle() throws RomFormatException {
        Random r = new Random(7);
        int whole = assertSameEveryInstruction("demo", DemoRom.cartridge(), 150_000, r, new boolean[257]);
        assertTrue(whole > 150_000 * 9 / 10, "only " + whole + " instructions ran whole");
        assertSameEveryFrame("demo", DemoRom.cartridge(), 200, r);
    }

    @Test
    void everyBoardRunningRandomCodeEqualsCycleByCycle() throws RomFormatException {
        int boards = 0;
        long whole = 0;
        boolean[] ranWhole = new boolean[257];
        for (int number = 0; number < 256; number++) {
            Random r = new Random(number * 31L + 5);
            Cartridge cart = RandomCodeCarts.cart(number, (number & 1) != 0, r);
            try {
                Console.create(cart);
            } catch (RomFormatException e) {
                continue;
            }
            boards++;
            whole += assertSameEveryInstruction(cart.name(), cart, 20_000, r, ranWhole);
            assertSameEveryFrame(cart.name(), cart, 6, r);
        }
        assertTrue(boards >= 40, "only " + boards + " boards built");
        assertTrue(whole > boards * 20_000L / 2, "only " + whole + " instructions ran whole (the test would prove little)");
        // Every opcode but KIL (which never returns) went through the whole-instruction path at
        // least once, so each addressing mode and operation of it was compared.
        List<String> missing = new java.util.ArrayList<>();
        for (int op = 0; op < 256; op++) {
            if (!ranWhole[op] && !isKil(op)) {
                missing.add(String.format("$%02X", op));
            }
        }
        assertTrue(missing.isEmpty(), "opcodes never run whole: " + missing);
        assertTrue(ranWhole[INTERRUPT], "no interrupt sequence ran whole");
    }

    /**
     * {@code fast} runs instruction by instruction ({@link Console#runInstruction}), {@code slow}
     * cycle by cycle to the same cycle; the whole state is compared after each instruction.
     * {@code ranWhole[op]} is set for each opcode {@code fast} ran as a whole instruction,
     * {@code ranWhole[INTERRUPT]} when it ran an interrupt sequence as a whole.
     */
    private static int assertSameEveryInstruction(String name, Cartridge cart, int instructions, Random r,
                                                  boolean[] ranWhole) throws RomFormatException {
        Console fast = Console.create(cart);
        Console slow = Console.create(cart);
        CycleDigest fastDigest = new CycleDigest(fast);
        CycleDigest slowDigest = new CycleDigest(slow);
        int whole = 0;
        for (int i = 0; i < instructions; i++) {
            if ((i & 4095) == 0) {
                int buttons = r.nextInt(4) == 0 ? 1 << r.nextInt(8) : 0;
                fast.setButtons(0, buttons);
                slow.setButtons(0, buttons);
                if (r.nextInt(40) == 0) {
                    fast.reset();
                    slow.reset();
                }
            }
            if (fast.cpu().jammed() || (fast.cpu().atInstructionStart() && isKil(fast.peek(fast.cpu().address())))) {
                // Random code can reach a KIL opcode (runInstruction would never return).
                fast.reset();
                slow.reset();
            }
            if (fast.cpu().atInstructionStart() && fast.wholeInstructionSafe()) {
                whole++;
                ranWhole[fast.peek(fast.cpu().address())] = true;
            }
            fast.runInstruction();
            while (slow.cycles() < fast.cycles()) {
                // An interrupt sequence starting where it is safe is one that fast, in the same
                // state there, ran as a whole.
                if (slow.cpu().atInterruptStart() && slow.wholeInstructionSafe()) {
                    ranWhole[INTERRUPT] = true;
                }
                slow.runCycle();
            }
            if (fastDigest.digest() != slowDigest.digest()) {
                fail(name + ": instruction " + i + " ending at cycle " + fast.cycles() + " (opcode $"
                        + Integer.toHexString(fast.cpu().opcode()) + " at $" + Integer.toHexString(fast.cpu().instructionPc())
                        + ") leaves a different state\n  " + String.join("\n  ", diff(fast, slow)));
            }
        }
        return whole;
    }

    /** {@code fast} runs {@link Console#runFrame}, {@code slow} cycles until the frame counter moves. */
    private static void assertSameEveryFrame(String name, Cartridge cart, int frames, Random r) throws RomFormatException {
        Console fast = Console.create(cart);
        Console slow = Console.create(cart);
        CycleDigest fastDigest = new CycleDigest(fast);
        CycleDigest slowDigest = new CycleDigest(slow);
        for (int f = 0; f < frames; f++) {
            int buttons = r.nextInt(4) == 0 ? 1 << r.nextInt(8) : 0;
            fast.setButtons(0, buttons);
            slow.setButtons(0, buttons);
            fast.runFrame();
            long frame = slow.frameAfterCycle();
            while (slow.frameAfterCycle() == frame) {
                slow.runCycle();
            }
            assertEquals(slow.cycles(), fast.cycles(), name + ": frame " + f + " ends on another cycle");
            if (fastDigest.digest() != slowDigest.digest()) {
                fail(name + ": frame " + f + " leaves a different state\n  " + String.join("\n  ", diff(fast, slow)));
            }
            assertArrayEquals(slow.ppu().frame(), fast.ppu().frame(), name + ": frame " + f + " differs");
        }
    }

    private static boolean isKil(int opcode) {
        return (opcode & 0x0F) == 2 && opcode != 0x82 && opcode != 0xA2 && opcode != 0xC2 && opcode != 0xE2;
    }

    private static List<String> diff(Console a, Console b) {
        List<String> d = StateDiff.diff(Describer.describe(a), Describer.describe(b));
        return d.size() > 20 ? d.subList(0, 20) : d;
    }
}
