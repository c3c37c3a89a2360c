package lockstep.nes.core.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import lockstep.nes.core.Console;
import lockstep.nes.core.IrqLoopProgram;
import lockstep.nes.core.RandomCodeCarts;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A chained stretch ({@link ChainedRun#resume}) that runs whole instructions and whole
 * interrupt sequences gives the chain of its reference, every cycle run alone
 * ({@link ChainedRun#resumeCycleByCycle}), and ends on the same cycle in the same state:
 * stretches of random lengths, from frame starts and from inside frames, on consoles that
 * count no spin loops (a counted loop is one record in the chain, which the reference never
 * makes).
 */
class ChainedRunTest {

    /** Stretches until {@code frames} frames have run; returns the interrupt sequences the chained run took whole. */
    private static long assertSameChains(Cartridge cart, int frames, long seed) throws Exception {
        Console fast = Console.createWithoutSpinSkip(cart);
        Console ref = Console.createWithoutSpinSkip(cart);
        ChainedRun a = new ChainedRun(new RepresentationTerm(fast));
        ChainedRun b = new ChainedRun(new RepresentationTerm(ref));
        CycleDigest da = new CycleDigest(fast);
        CycleDigest db = new CycleDigest(ref);
        Random r = new Random(seed);
        long whole = 0;
        int stretches = 0;
        while (fast.frameAfterCycle() < frames) {
            // Stretches start caught up, as the verifier's do.
            fast.catchUp();
            ref.catchUp();
            long start = fast.cycles();
            long limit = start + 1 + (r.nextBoolean() ? r.nextInt(64) : r.nextInt(40_000));
            a.begin();
            b.begin();
            long chain = a.resume(limit);
            long frame = ref.frameAfterCycle();
            while (ref.frameAfterCycle() == frame && ref.cycles() < limit) {
                Cpu c = ref.cpu();
                if (c.atInterruptStart() && ref.cycles() + Cpu.MAX_INSTRUCTION_CYCLES <= limit
                        && ref.wholeInstructionSafe() && ref.frameCannotEndWithin()) {
                    whole++; // the chained run, in this state here, ran this sequence whole
                }
                b.resumeCycleByCycle(ref.cycles() + 1);
            }
            stretches++;
            final String at = cart.name() + ": stretch " + stretches + " from cycle " + start;
            assertEquals(ref.cycles(), fast.cycles(), () -> at + " ends on another cycle");
            assertEquals(b.chain(), chain, () -> at + " to " + fast.cycles() + ": chains differ");
            assertEquals(db.digest(), da.digest(), () -> at + " to " + fast.cycles() + ": states differ");
        }
        return whole;
    }

    @Test
    void interruptSequencesRunWholeGiveTheReferenceChain() throws Exception {
        long whole = assertSameChains(IrqLoopProgram.cartridge(), 40, 1);
        assertTrue(whole > 40 * 1000L, "interrupt sequences run whole: " + whole);
    }

    @ParameterizedTest
    @ValueSource(strings = {"other/snow.nes", "cpu_interrupts_v2/rom_singles/4-irq_and_dma.nes",
        "cpu_interrupts_v2/rom_singles/2-nmi_and_brk.nes", "spritecans-2011/spritecans.nes",
        "nes15-1.0.0/nes15-NTSC.nes"})
    void romsGiveTheReferenceChain(String rom) throws Exception {
        long whole = assertSameChains(Cartridge.load(TestRoms.require(rom)), 30, rom.hashCode());
        assertTrue(whole > 0, rom + ": no interrupt sequence ran whole");
    }

    @Test
    void theDemoGivesTheReferenceChain() throws Exception {
        assertSameChains(DemoRom.cartridge(), 30, 7);
    }

    /**
     * A program that strobes and reads the first pad in a loop, with nothing else changing
     * between reads (the chain then folds the controllers' part alone), on boards whose term
     * moves with the clock (MMC1, MMC3: taken afresh at every fold) and on NROM.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4})
    void padReadsGiveTheReferenceChain(int mapper) throws Exception {
        String src = String.join("\n",
                ".org $E000",
                "reset:",
                "  sei",
                "  ldx #$FF",
                "  txs",
                "loop:",
                "  lda #1",
                "  sta $4016",
                "  lda #0",
                "  sta $4016",
                "  ldx #8",
                "read:",
                "  lda $4016",
                "  dex",
                "  bne read",
                "  jmp loop",
                "nmi:",
                "irq:",
                "  rti",
                ".org $FFFA",
                ".word nmi, reset, irq");
        byte[] last = Assembler.assemble(src).image(0xE000, 0x2000, 0xEA);
        byte[] prg = new byte[mapper == 0 ? 0x8000 : 0x20000];
        Arrays.fill(prg, (byte) 0xEA);
        System.arraycopy(last, 0, prg, prg.length - last.length, last.length);
        Cartridge cart = new Cartridge("pads" + mapper + ".nes", prg, new byte[0], mapper, Mirroring.VERTICAL, false,
                8192, 8192);
        assertSameChains(cart, 6, mapper);
    }

    /** Random code on boards with IRQs of their own (MMC3's scanline counter, FME-7's cycle counter) and without. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4, 69})
    void randomCodeGivesTheReferenceChain(int mapper) throws Exception {
        Random r = new Random(mapper);
        for (int i = 0; i < 3; i++) {
            assertSameChains(RandomCodeCarts.cart(mapper, i == 1, r), 8, r.nextLong());
        }
    }
}
