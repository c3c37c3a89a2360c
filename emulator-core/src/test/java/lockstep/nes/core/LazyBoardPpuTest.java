package lockstep.nes.core;


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
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateDiff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Boards that watch the PPU bus (MMC1, MMC3) with the PPU run behind the CPU must equal the same
 * board with the PPU stepped with the CPU, at every cycle.
 *
 * <p>Looking at the whole machine catches the lazy PPU up, so a digest of everything at every
 * cycle would step both engines alike and prove nothing about long catch-ups. Each cycle compares
 * what the CPU side sees without catching the PPU up (CPU, RAM, DMA, APU, the cycle count and
 * the board's /IRQ as polled, which is where a late IRQ would show); the whole machine's digest
 * is compared at random points (a few thousand cycles apart on average, so the lazy engine runs
 * long stretches unobserved) and at every frame.
 */
class LazyBoardPpuTest {

    static Stream<Arguments> roms() {
        return Stream.of(
                // MMC3: the IRQ counter's timing tests (A12 filter, scanline timing, revisions).
                Arguments.of("mmc3_test_2/rom_singles/1-clocking.nes", -1, 200),
                Arguments.of("mmc3_test_2/rom_singles/3-A12_clocking.nes", -1, 200),
                Arguments.of("mmc3_test_2/rom_singles/4-scanline_timing.nes", -1, 250),
                Arguments.of("mmc3_test_2/rom_singles/5-MMC3.nes", -1, 200),
                Arguments.of("mmc3_test_2/rom_singles/6-MMC3_alt.nes", 4, 200),
                Arguments.of("mmc3_test/6-MMC6.nes", 1, 200),
                Arguments.of("mmc3_irq_tests/4.Scanline_timing.nes", -1, 200),
                Arguments.of("mmc3_irq_tests/5.MMC3_rev_A.nes", 4, 150),
                // MMC3 demos and games rendering with IRQ splits.
                Arguments.of("other/BladeBuster.nes", -1, 300),
                // Five scroll writes a line, two to four of them taking only t and w.
                Arguments.of("other/high-hopes.nes", -1, 150),
                Arguments.of("other/rastesam4.nes", -1, 250),
                Arguments.of("stomper/smwstomp.nes", -1, 250),
                // MMC1: the A12-following outer lines (SNROM), a demo, and a CPU test.
                Arguments.of("MMC1_A12/mmc1_a12.nes", -1, 300),
                Arguments.of("other/pulsar.nes", -1, 250),
                Arguments.of("instr_test-v5/all_instrs.nes", -1, 150));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roms")
    void lazyEqualsEagerAtEveryCycle(String rom, int submapper, int frames) throws IOException, RomFormatException {
        Cartridge cart = Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom)));
        if (submapper >= 0) {
            cart = cart.withSubmapper(submapper);
        }
        Console eager = Console.createEager(cart);
        Console lazy = Console.create(cart);
        CycleDigest eagerDigest = new CycleDigest(eager);
        CycleDigest lazyDigest = new CycleDigest(lazy);
        Random r = new Random(rom.hashCode());
        long nextFull = 1 + r.nextInt(6000);
        int irqCycles = 0;
        for (int f = 0; f < frames; f++) {
            // Buttons now and then (the MMC1_A12 test takes UP; games start and move).
            int buttons = r.nextInt(6) == 0 ? 1 << r.nextInt(8) : 0;
            eager.setButtons(0, buttons);
            lazy.setButtons(0, buttons);
            long frame = eager.ppu().frameCount();
            while (eager.ppu().frameCount() == frame) {
                eager.runCycle();
                lazy.runCycle();
                if (cpuSide(eager) != cpuSide(lazy)) {
                    fail(rom + ": the CPU side differs at cycle " + eager.cycles() + " (frame " + f + ")\n  "
                            + String.join("\n  ", diff(eager, lazy)));
                }
                if (eager.mapper().irq()) {
                    irqCycles++;
                }
                if (eager.cycles() >= nextFull) {
                    nextFull = eager.cycles() + 1 + r.nextInt(6000);
                    compareAll(rom, eager, lazy, eagerDigest, lazyDigest);
                }
            }
            compareAll(rom, eager, lazy, eagerDigest, lazyDigest);
        }
        assertEquals(eager.frame(), lazy.frame());
        if (rom.startsWith("mmc3")) {
            assertTrue(irqCycles > 0, rom + ": the board never raised /IRQ (the test would prove little)");
        }
    }

    /**
     * Every board that watches the PPU bus and lets it run behind, running random code (which
     * writes random PPU and board registers: rendering, $2006/$2007 traffic, IRQ latches and
     * enables), equals the same board stepped eagerly.
     */
    @Test
    void everyLazyBusWatchingBoardRunningRandomCodeEqualsEager() throws RomFormatException {
        int boards = 0;
        for (int number = 0; number < 256; number++) {
            for (boolean chrRam : new boolean[] {false, true}) {
                Random r = new Random(number * 2 + (chrRam ? 1 : 0));
                Cartridge cart = RandomCodeCarts.cart(number, chrRam, r);
                Console lazy;
                try {
                    lazy = Console.create(cart);
                } catch (RomFormatException e) {
                    continue;
                }
                if (lazy.mapper().direct() != null || !lazy.mapper().lazyPpuSafe()) {
                    continue;
                }
                boards++;
                Console eager = Console.createEager(cart);
                CycleDigest a = new CycleDigest(eager);
                CycleDigest b = new CycleDigest(lazy);
                long nextFull = 1 + r.nextInt(3000);
                for (int i = 0; i < 150_000; i++) {
                    eager.runCycle();
                    lazy.runCycle();
                    if (cpuSide(eager) != cpuSide(lazy)) {
                        fail(cart.name() + ": the CPU side differs at cycle " + eager.cycles() + "\n  "
                                + String.join("\n  ", diff(eager, lazy)));
                    }
                    if (eager.cycles() >= nextFull) {
                        nextFull = eager.cycles() + 1 + r.nextInt(3000);
                        compareAll(cart.name(), eager, lazy, a, b);
                    }
                    if ((i & 16383) == 0 && r.nextInt(8) == 0) {
                        eager.reset();
                        lazy.reset();
                    }
                }
                compareAll(cart.name(), eager, lazy, a, b);
            }
        }
        assertTrue(boards >= 10, "only " + boards + " lazy bus-watching boards built");
    }

    /**
     * The RAMBO-1 (scanline and CPU-cycle mode) and the TC0690, for which there are no test ROMs:
     * a program that takes an IRQ every 11 lines (or every $84 cycles), acknowledging and
     * re-enabling it in the handler, runs the same with the PPU behind the CPU as stepped with it.
     */
    @ParameterizedTest(name = "mapper {0}, latch {1}")
    @org.junit.jupiter.params.provider.CsvSource({"64, 10", "64, 33", "48, 245"})
    void mmc3LikeBoardsTakingIrqsEqualEager(int mapper, int latch) throws RomFormatException {
        // Latch, reload, enable and acknowledge registers.
        int[] regs = mapper == 64 ? new int[] {0xC000, 0xC001, 0xE001, 0xE000} : new int[] {0xC000, 0xC001, 0xC002, 0xC003};
        int[] code = {
            0x78, 0xA2, 0xFF, 0x9A,                 // SEI; LDX #$FF; TXS
            0x2C, 0x02, 0x20, 0x10, 0xFB,           // BIT $2002; BPL (wait for vblank)
            0x2C, 0x02, 0x20, 0x10, 0xFB,           // again
            0xA9, 0x08, 0x8D, 0x00, 0x20,           // sprites at $1000
            0xA9, latch,                            // LDA #latch (bit 0 also the RAMBO-1's $C001 mode)
            0x8D, regs[0] & 0xFF, regs[0] >> 8,     // latch
            0x8D, regs[1] & 0xFF, regs[1] >> 8,     // reload
            0x8D, regs[2] & 0xFF, regs[2] >> 8,     // enable
            0xA9, 0x18, 0x8D, 0x01, 0x20,           // rendering on
            0x58,                                   // CLI
            0x4C, 0x24, 0x80,                       // $8024: JMP $8024
            0x8D, regs[3] & 0xFF, regs[3] >> 8,     // $8027 (IRQ): acknowledge
            0x8D, regs[2] & 0xFF, regs[2] >> 8,     // enable again
            0x40,                                   // $802D: RTI
        };
        byte[] prg = new byte[32768];
        for (int i = 0; i < code.length; i++) {
            prg[i] = (byte) code[i];
        }
        assertEquals(0x2E, code.length);
        int[] vectors = {0x802D, 0x8000, 0x8027}; // NMI, RESET, IRQ
        for (int v = 0; v < 3; v++) {
            prg[0x7FFA + 2 * v] = (byte) vectors[v];
            prg[0x7FFB + 2 * v] = (byte) (vectors[v] >> 8);
        }
        Cartridge cart = Cartridge.builder("irq" + mapper + ".nes", prg, new byte[8192], mapper).build();
        Console eager = Console.createEager(cart);
        Console lazy = Console.create(cart);
        CycleDigest eagerDigest = new CycleDigest(eager);
        CycleDigest lazyDigest = new CycleDigest(lazy);
        int irqs = 0;
        boolean before = false;
        for (int f = 0; f < 30; f++) {
            long frame = eager.ppu().frameCount();
            while (eager.ppu().frameCount() == frame) {
                eager.runCycle();
                lazy.runCycle();
                if (cpuSide(eager) != cpuSide(lazy)) {
                    fail(cart.name() + ": the CPU side differs at cycle " + eager.cycles() + " (frame " + f + ")\n  "
                            + String.join("\n  ", diff(eager, lazy)));
                }
                boolean now = eager.mapper().irq();
                if (lazy.mapper().irq() != now) {
                    // (A late /IRQ may still be polled at the same instruction boundary: compare the line too.)
                    fail(cart.name() + ": /IRQ differs at cycle " + eager.cycles() + " (frame " + f + ")");
                }
                if (now && !before) {
                    irqs++;
                }
                before = now;
            }
            compareAll(cart.name(), eager, lazy, eagerDigest, lazyDigest);
        }
        assertTrue(irqs > 30 * 10, cart.name() + ": only " + irqs + " IRQs in 30 frames");
    }

    /** The CPU side of the engine, read without catching the PPU up. */
    static long cpuSide(Console c) {
        long h = c.cpu().digestTerm();
        h = h * 31 + c.ram().hash();
        h = h * 31 + c.dma().digestTerm();
        h = h * 31 + c.apu().digestTerm();
        h = h * 31 + c.cycles();
        return h * 31 + (c.cpu().address() & 0xFFFF);
    }

    static void compareAll(String rom, Console eager, Console lazy, CycleDigest a, CycleDigest b) {
        if (a.digest() != b.digest()) {
            fail(rom + ": the machines differ at cycle " + eager.cycles() + "\n  " + String.join("\n  ", diff(eager, lazy)));
        }
    }

    private static List<String> diff(Console eager, Console lazy) {
        List<String> d = StateDiff.diff(Describer.describe(eager), Describer.describe(lazy));
        return d.size() > 20 ? d.subList(0, 20) : d;
    }
}
