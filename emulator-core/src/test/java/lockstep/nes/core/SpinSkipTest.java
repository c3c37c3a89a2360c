package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.chain.PairStepper;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.demo.Ines;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The spin-loop fast path ({@link Console#skipSpin}, {@link SpinSkip}) against the engine that
 * runs every iteration ({@link Console#createWithoutSpinSkip}): the whole machine's digest after
 * every frame. The programs are the loops the fast path counts (a flag in RAM that the NMI
 * handler sets, a JMP to itself, DEX and DEY countdowns from every kind of start, across a page,
 * a frame IRQ ending the wait) and loops that look alike but must run (a loop that writes RAM,
 * a register read, a countdown with more in it); then games and test ROMs that wait in loops.
 */
class SpinSkipTest {
    private static final int FRAMES = 90;

    /**
     * Countdowns from a start that grows by 37 each time: 0 (256 turns), values above $80 (N set
     * until $80) and small ones; Y, then X. Both registers and the flags are stored after them,
     * so a wrong count shows in RAM too; the code around them changes $10, so only the
     * countdowns can be counted.
     */
    private static final String COUNTDOWNS = String.join("\n",
            "main:",
            "  lda $10",
            "  clc",
            "  adc #37",
            "  sta $10",
            "  tay",
            "dy:",
            "  dey",
            "  bne dy",
            "  sty $11",
            "  php",
            "  pla",
            "  sta $12",
            "  ldx $10",
            "dx:",
            "  dex",
            "  bne dx",
            "  stx $14",
            "  inc $15");

    /** Rendering and the NMI on, then {@code main}; the NMI handler is {@code nmiBody} and RTI. */
    private static Cartridge program(String main, String nmiBody) throws RomFormatException {
        String src = String.join("\n",
                ".org $8000",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "  lda #$1E",
                "  sta $2001",
                "  lda #$80",
                "  sta $2000",
                main,
                "nmi:",
                nmiBody,
                "  rti",
                "irq:",
                "  inc $13",
                "  lda $4015",
                "  rti",
                ".org $FFFA",
                ".word nmi, reset, irq",
                "");
        byte[] prg = Assembler.assemble(src).image(0x8000, 0x8000, 0xEA);
        return Cartridge.parse("spin.nes", Ines.nrom(prg, new byte[0x2000], true));
    }

    /** Runs both engines {@link #FRAMES} frames; fails at the first frame whose digests differ; returns the cycles skipped. */
    private static long assertSameEveryFrame(String name, Cartridge cart, int frames) throws RomFormatException {
        Console fast = Console.create(cart);
        Console slow = Console.createWithoutSpinSkip(cart);
        CycleDigest fastDigest = new CycleDigest(fast);
        CycleDigest slowDigest = new CycleDigest(slow);
        for (int f = 1; f <= frames; f++) {
            fast.runFrame();
            slow.runFrame();
            final int frame = f;
            assertEquals(slow.cycles(), fast.cycles(), () -> name + ": frame " + frame + " ends on another cycle");
            assertEquals(slowDigest.digest(), fastDigest.digest(), () -> name + ": frame " + frame + " differs\n  "
                    + String.join("\n  ", QuietCycleTest.diff(fast, slow)));
        }
        assertEquals(0, slow.spinCyclesSkipped());
        return fast.spinCyclesSkipped();
    }

    /** {@link #assertSameEveryFrame} over {@link #FRAMES} frames, with more than {@code atLeast} cycles counted. */
    private static void assertCountedAndSame(String name, Cartridge cart, long atLeast) throws RomFormatException {
        long skipped = assertSameEveryFrame(name, cart, FRAMES);
        assertTrue(skipped > atLeast, name + ": skipped " + skipped);
    }

    @Test
    void aFlagInRamThatTheNmiSetsIsWaitedForWithoutRunningTheWait() throws RomFormatException {
        Cartridge cart = program(String.join("\n",
                "main:",
                "  lda #0",
                "  sta $10",
                "wait:",
                "  lda $10",
                "  beq wait",
                "  inc $11",
                "  jmp main"), "  inc $10");
        // Most of each frame is the wait: far more than half its 29,780 cycles are counted.
        assertCountedAndSame("flag", cart, FRAMES * 20_000L);
    }

    @Test
    void aJumpToItselfIsCountedUpToTheNmi() throws RomFormatException {
        assertCountedAndSame("jmp", program("spin:\n  jmp spin", "  inc $10"), FRAMES * 25_000L);
    }

    @Test
    void countdownsFromEveryKindOfStartEndWhereTheyWouldHave() throws RomFormatException {
        Cartridge cart = program(COUNTDOWNS + "\n  jmp main", "  inc $17");
        assertCountedAndSame("countdown", cart, FRAMES * 10_000L);
    }

    @Test
    void everyCountEndsInTheStateTheIterationsWouldHaveLeft() throws RomFormatException {
        // Not only at frame ends: right after each count, on its cycle, the whole machine is as
        // the engine that ran the iterations has it there (a countdown's register and flags too).
        Cartridge cart = program(COUNTDOWNS + "\n  lda #0\n  sta $18\nwait:\n  lda $18\n  beq wait\n  jmp main",
                "  inc $18");
        Console fast = Console.create(cart);
        Console ref = Console.createWithoutSpinSkip(cart);
        CycleDigest df = new CycleDigest(fast);
        CycleDigest dr = new CycleDigest(ref);
        int counts = 0;
        while (fast.frameAfterCycle() < 40) {
            if (fast.cpu().atInstructionStart() && fast.wholeInstructionSafe() && fast.frameCannotEndWithin()) {
                fast.runWholeInstruction();
                if (fast.cpu().pc() <= fast.cpu().instructionPc() && fast.skipSpin(Long.MAX_VALUE) > 0) {
                    counts++;
                    while (ref.cycles() < fast.cycles()) {
                        ref.runInstruction();
                    }
                    final long at = fast.cycles();
                    assertEquals(at, ref.cycles(), "the count ends on an instruction boundary");
                    assertEquals(dr.digest(), df.digest(), () -> "after the count ending at cycle " + at + "\n  "
                            + String.join("\n  ", QuietCycleTest.diff(fast, ref)));
                }
            } else {
                fast.runCycle();
            }
        }
        assertTrue(counts > 40, "counts " + counts);
    }

    @Test
    void aCountdownAcrossAPageBoundaryTakesItsExtraCycle() throws RomFormatException {
        // DEX at $81FF, BNE at $8200: the branch back crosses a page (4 cycles a turn).
        Cartridge cart = program(String.join("\n",
                "  jmp spin",
                ".org $81FF",
                "dx:",
                "  dex",
                "  bne dx",
                "  inc $16",
                "  rts",
                "spin:",
                "  jmp spin"), String.join("\n",
                "  ldx #200",
                "  jsr dx"));
        assertCountedAndSame("page", cart, 0);
    }

    @Test
    void aFrameIrqEndsTheWaitOnItsCycle() throws RomFormatException {
        // The APU's frame IRQ (mode 0, enabled) interrupts a JMP to itself with I clear.
        Cartridge cart = program(String.join("\n",
                "  lda #0",
                "  sta $4017",
                "  cli",
                "spin:",
                "  jmp spin"), "  inc $10");
        assertCountedAndSame("irq", cart, 0);
    }

    @ParameterizedTest(name = "mapper {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {4, 64, 48})
    void aScanlineIrqFromTheBoardEndsTheWaitOnItsCycle(int mapper) throws RomFormatException {
        // A JMP to itself with I clear, interrupted every 21 lines by the board's A12 counter
        // (sprites at $1000): the board's bound on the PPU's deadline stops the count.
        // MMC3 and RAMBO-1 reload from $C000/$C001 and enable at $E001 (acknowledged at $E000);
        // the TC0690's latch is at $C000 (inverted), its reload at $C001, enable at $C002.
        boolean taito = mapper == 48;
        String src = String.join("\n",
                ".org $8000",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "  lda #$40",
                "  sta $4017", // the APU's frame IRQ off: only the board interrupts
                "v1:",
                "  bit $2002",
                "  bpl v1",
                "v2:",
                "  bit $2002",
                "  bpl v2",
                "  lda #$08",
                "  sta $2000",
                "  lda #" + (taito ? "235" : "20"),
                "  sta $C000",
                "  sta $C001",
                taito ? "  sta $C002" : "  sta $E001",
                "  lda #$18",
                "  sta $2001",
                "  cli",
                "spin:",
                "  jmp spin",
                "irq:",
                taito ? "  sta $C003\n  sta $C002" : "  sta $E000\n  sta $E001",
                "  inc $10",
                "  rti",
                ".org $FFFA",
                ".word reset, reset, irq",
                "");
        byte[] image = Assembler.assemble(src).image(0x8000, 0x8000, 0xEA);
        // Every board here maps the first 8 KiB at $8000 and the last (with the vectors) at $E000 at power.
        Cartridge cart = Cartridge.builder("spin-irq.nes", image, new byte[0], mapper).build();
        long skipped = assertSameEveryFrame("mapper " + mapper, cart, 40);
        Console c = Console.create(cart);
        for (int i = 0; i < 40; i++) {
            c.runFrame();
        }
        assertTrue(c.ram().read(0x10) > 0, "the IRQ handler ran");
        if (mapper == 4) {
            assertTrue(skipped > 0, "skipped " + skipped);
        }
    }

    @Test
    void loopsThatChangeSomethingRunEveryIteration() throws RomFormatException {
        // A RAM write each turn, a PPU register read each turn, and a countdown that also
        // changes A: none is counted, and each stays the same as run.
        String[] loops = {
            "spin:\n  inc $20\n  lda #5\n  sta $21\n  jmp spin",
            "spin:\n  inc $20\n  lda $22\n  sta $21\n  jmp spin",
            "spin:\n  ldx $20\n  inx\n  stx $20\n  ldx #0\n  lda $22\n  sta $21\n  lda $22\n  jmp spin",
            "spin:\n  lda $20\n  clc\n  adc #1\n  sta $20\n  lda #0\n  sta $21\n  clc\n  lda $22\n  jmp spin",
            "spin:\n  lda $2002\n  jmp spin",
            "spin:\n  ldy #0\nd:\n  iny\n  dey\n  dey\n  bne d\n  jmp spin",
            "spin:\n  ldx #0\nd:\n  adc #1\n  dex\n  bne d\n  jmp spin",
        };
        for (String loop : loops) {
            assertEquals(0, assertSameEveryFrame(loop, program(loop, "  inc $10"), 30), loop);
        }
    }

    static Stream<String> roms() {
        return Stream.of("tutor/tutor.nes", "other/pulsar.nes", "spritecans-2011/spritecans.nes",
                "other/BladeBuster.nes", "other/high-hopes.nes", "nes15-1.0.0/nes15-NTSC.nes",
                "cpu_interrupts_v2/rom_singles/3-nmi_and_irq.nes", "mmc3_test_2/rom_singles/4-scanline_timing.nes",
                "apu_test/rom_singles/4-jitter.nes", "instr_timing/rom_singles/1-instr_timing.nes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roms")
    void romsStayTheSameEveryFrame(String rom) throws IOException, RomFormatException {
        assertSameEveryFrame(rom, Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom))), 300);
    }

    @Test
    void gamesThatWaitInLoopsHaveThemCounted() throws IOException, RomFormatException {
        for (String rom : List.of("tutor/tutor.nes", "other/pulsar.nes", "spritecans-2011/spritecans.nes")) {
            Console c = Console.create(Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom))));
            for (int i = 0; i < 120; i++) {
                c.runFrame();
            }
            assertTrue(c.spinCyclesSkipped() > c.cycles() / 4, rom + ": skipped " + c.spinCyclesSkipped() + " of " + c.cycles());
        }
    }

    @Test
    void theDemoToo() throws RomFormatException {
        assertSameEveryFrame("demo", DemoRom.cartridge(), 300);
    }

    @Test
    void theLockstepChainCountsTheSameLoopsAndEndsInTheSameState() throws IOException, RomFormatException {
        Cartridge pulsar = Cartridge.parse("pulsar", Files.readAllBytes(TestRoms.require("other/pulsar.nes")));
        assertTrue(assertChainedSame("pulsar", pulsar, 120) > 0);
        assertTrue(assertChainedSame("flag", program("main:\n  lda #0\n  sta $10\nwait:\n  lda $10\n  beq wait\n"
                + "  jmp main", "  inc $10"), 60) > 0);
        // Loops that must run, with the APU's frame IRQ on so that some of their cycles run
        // alone (near its events): the chain's cycles run alone count as non-quiet too.
        for (String loop : new String[] {
            "  lda #0\n  sta $4017\n  cli\nspin:\n  inc $20\n  lda #5\n  sta $21\n  jmp spin",
            "  lda #0\n  sta $4017\n  cli\nspin:\n  lda $2002\n  jmp spin",
        }) {
            assertEquals(0, assertChainedSame(loop, program(loop, "  inc $10"), 60), loop);
        }
    }

    /**
     * Two engines stepped as the same-thread verifier steps them (chained stretches, which count
     * spin loops as runFrame does, one chain record per count) agree with each other and end
     * every frame as the engine that runs every iteration; returns the cycles counted.
     */
    private static long assertChainedSame(String name, Cartridge cart, int frames) throws RomFormatException {
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        Console ref = Console.createWithoutSpinSkip(cart);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        CycleDigest dr = new CycleDigest(ref);
        PairStepper pair = new PairStepper(a, b);
        for (int f = 1; f <= frames; f++) {
            PairStepperTest.frame(a, b, da, db, pair);
            ref.runFrame();
            final int at = f;
            assertEquals(ref.cycles(), a.cycles(), () -> name + ": frame " + at);
            assertEquals(dr.digest(), da.digest(), () -> name + ": frame " + at + "\n  " + String.join("\n  ", QuietCycleTest.diff(a, ref)));
            assertEquals(dr.digest(), db.digest(), () -> name + ": frame " + at);
        }
        assertEquals(a.spinCyclesSkipped(), b.spinCyclesSkipped(), name);
        return a.spinCyclesSkipped();
    }
}
