package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.Describer;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.state.StateEntry;
import org.junit.jupiter.api.Test;

/**
 * The lazily caught-up APU is exact: two consoles run the same random program, one with the
 * APU stepped every cycle as it starts ({@link Apu#setEager}, the reference) and one lazy.
 *
 * <p>The program hammers the APU from the CPU: random writes to every register (biased to
 * audible channels, frame-counter modes, DMC enables and disables at every cycle parity,
 * length reloads), $4015 reads (also under DMC DMA, the internal-read glitch), OAM DMA,
 * delays of a few to ~60,000 cycles, and IRQs taken (frame and DMC) with a handler that reads
 * $4015. The test also resets, loads snapshots and pokes registers directly at random cycles.
 *
 * <p>Every cycle: the CPU's and the DMA unit's digest terms and the IRQ line agree (which
 * proves DMC DMA timing and IRQ timing without observing the lazy APU). At random points
 * (every cycle for a while, then sparsely, so catch-ups of every length happen): the whole
 * machine's digest, its full state description field by field, $4015 as peeked, and every
 * audio sample produced so far.
 */
class LazyApuDifferentialTest {
    private static final int IRQ = 0xF000;
    private static final int NMI = 0xF100;

    /** A 32 KiB NROM program of random APU work from $8000, looping forever. */
    static byte[] program(Random r) {
        byte[] prg = new byte[0x8000];
        Arrays.fill(prg, (byte) 0xEA);
        Asm a = new Asm(prg, 0x8000);
        a.op(0x78); // SEI
        a.op(0xA2, 0xFF); // LDX #$FF
        a.op(0x9A); // TXS
        int loop = a.pc;
        while (a.pc < 0xE000) {
            block(a, r);
        }
        a.op(0x4C, loop & 0xFF, loop >> 8); // JMP loop
        // IRQ: acknowledge the frame IRQ ($4015 read) and the DMC's ($4010 with bit 7 clear).
        a.pc = IRQ;
        a.op(0x48); // PHA
        a.op(0xAD, 0x15, 0x40); // LDA $4015
        a.op(0xA9, r.nextInt(0x80)); // LDA #rate/loop, IRQ off
        a.op(0x8D, 0x10, 0x40); // STA $4010
        a.op(0x68); // PLA
        a.op(0x40); // RTI
        a.pc = NMI;
        a.op(0x40);
        prg[0x7FFA] = (byte) NMI;
        prg[0x7FFB] = (byte) (NMI >> 8);
        prg[0x7FFC] = 0x00;
        prg[0x7FFD] = (byte) 0x80;
        prg[0x7FFE] = (byte) IRQ;
        prg[0x7FFF] = (byte) (IRQ >> 8);
        return prg;
    }

    private static void block(Asm a, Random r) {
        int k = r.nextInt(100);
        if (k < 45) {
            int reg = r.nextInt(0x18);
            if (reg == 0x14 || reg == 0x16) {
                reg = 0x15;
            }
            a.op(0xA9, value(reg, r)); // LDA #v
            a.op(0x8D, reg, 0x40); // STA $40xx
        } else if (k < 58) {
            a.op(0xAD, 0x15, 0x40); // LDA $4015
        } else if (k < 64) {
            a.op(0xAD, 0x16 + r.nextInt(2), 0x40); // LDA $4016/7
        } else if (k < 76) {
            a.op(0xA2, 1 + r.nextInt(255)); // LDX #n
            a.op(0xCA); // DEX
            a.op(0xD0, 0xFD); // BNE -3
        } else if (k < 80) {
            // ~ m * 1280 cycles: lets frame steps, length counters and samples run out.
            a.op(0xA0, 1 + r.nextInt(48)); // LDY #m
            a.op(0xA2, 0x00); // LDX #0
            a.op(0xCA); // DEX
            a.op(0xD0, 0xFD); // BNE -3
            a.op(0x88); // DEY
            a.op(0xD0, 0xF8); // BNE -8
        } else if (k < 86) {
            a.op(r.nextInt(4) != 0 ? 0x58 : 0x78); // CLI (mostly) / SEI
        } else if (k < 89) {
            a.op(0xA9, r.nextInt(8)); // LDA #page (RAM)
            a.op(0x8D, 0x14, 0x40); // STA $4014
        } else if (k < 94) {
            // A read-modify-write on an APU register: dummy write then the real one.
            a.op(0xEE, r.nextInt(0x14), 0x40); // INC $40xx
        } else {
            for (int i = r.nextInt(6); i >= 0; i--) {
                a.op(0xEA);
            }
        }
    }

    /** A random value for $40{reg}, biased towards what makes the channels sound and the DMC run. */
    private static int value(int reg, Random r) {
        int v = r.nextInt(256);
        switch (reg) {
            case 0x00, 0x04, 0x0C -> {
                // Mostly constant volume, loud; sometimes envelopes.
                return r.nextInt(4) == 0 ? v : (v | 0x10) | 0x08;
            }
            case 0x01, 0x05 -> {
                return r.nextInt(3) == 0 ? v : v & 0x7F; // sweep mostly off
            }
            case 0x03, 0x07, 0x0B, 0x0F -> {
                return (v & 0xF8) | r.nextInt(3); // length index, low period high bits
            }
            case 0x08 -> {
                return r.nextInt(3) == 0 ? v : 0x80 | v; // linear counter, often halted
            }
            case 0x0A -> {
                return r.nextInt(20) == 0 ? r.nextInt(3) : v; // sometimes an ultrasonic triangle
            }
            case 0x0E -> {
                return v & 0x8F;
            }
            case 0x10 -> {
                return r.nextInt(3) == 0 ? v : v & 0x4F; // IRQ mostly off (the handler turns it off)
            }
            case 0x13 -> {
                return r.nextInt(4); // short samples: they end often
            }
            case 0x15 -> {
                return r.nextInt(4) == 0 ? v & 0x0F : v | 0x0F;
            }
            case 0x17 -> {
                return r.nextBoolean() ? 0 : v & 0xC0; // often 4-step mode with the frame IRQ
            }
            default -> {
                return v;
            }
        }
    }

    private static final class Asm {
        final byte[] prg;
        int pc;

        Asm(byte[] prg, int pc) {
            this.prg = prg;
            this.pc = pc;
        }

        void op(int... bytes) {
            for (int b : bytes) {
                prg[pc++ - 0x8000] = (byte) b;
            }
        }
    }

    private static Console console(byte[] prg) {
        try {
            return Console.create(new Cartridge("lazy-apu", prg.clone(), new byte[8192], 0, Mirroring.HORIZONTAL,
                    false, 8192, 0));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static final short[] BUF_A = new short[1 << 16];
    private static final short[] BUF_B = new short[1 << 16];

    /** Everything observable of the two engines agrees (this catches the lazy one up). */
    private static void assertSame(Console lazy, Console ref, String where, boolean full) {
        assertEquals(ref.peek(0x4015), lazy.peek(0x4015), where + ": $4015");
        if (full) {
            List<StateEntry> a = Describer.describe(lazy);
            List<StateEntry> b = Describer.describe(ref);
            if (a.size() != b.size()) {
                fail(where + ": state descriptions differ in length");
            }
            for (int i = 0; i < a.size(); i++) {
                if (!a.get(i).path().equals(b.get(i).path()) || !a.get(i).sameValue(b.get(i))) {
                    fail(where + ": state differs at " + b.get(i).path() + ": lazy " + a.get(i).scalarText()
                            + " vs eager " + b.get(i).scalarText());
                }
            }
        }
        assertEquals(ref.digestTerm(), lazy.digestTerm(), where + ": digest");
        int na = lazy.apu().audio().read(BUF_A, 0, BUF_A.length);
        int nb = ref.apu().audio().read(BUF_B, 0, BUF_B.length);
        assertEquals(nb, na, where + ": audio sample count");
        for (int i = 0; i < na; i++) {
            if (BUF_A[i] != BUF_B[i]) {
                fail(where + ": audio sample " + i + " of " + na + ": lazy " + BUF_A[i] + " vs eager " + BUF_B[i]);
            }
        }
    }

    private static void run(long seed, int cycles) throws Exception {
        Random r = new Random(seed);
        run(program(r), r, "seed " + seed, cycles);
    }

    /** Runs {@code prg} on a lazy and an eager engine, observing both at points {@code r} draws. */
    private static void run(byte[] prg, Random r, String name, int cycles) throws Exception {
        Console lazy = console(prg);
        Console ref = console(prg);
        ref.apu().setEager(true);
        long observeAt = 0;
        int dense = 0;
        long observations = 0;
        for (int i = 0; i < cycles; i++) {
            lazy.runCycle();
            ref.runCycle();
            String where = name + " cycle " + ref.cycles();
            if (lazy.cpu().digestTerm() != ref.cpu().digestTerm() || lazy.dma().digestTerm() != ref.dma().digestTerm()
                    || lazy.apu().irq() != ref.apu().irq()) {
                assertSame(lazy, ref, where, true);
                fail(where + ": CPU, DMA or IRQ line differs");
            }
            if (ref.cycles() >= observeAt) {
                observations++;
                assertSame(lazy, ref, where, r.nextInt(8) == 0);
                if (dense > 0) {
                    dense--;
                    observeAt = ref.cycles() + 1;
                } else {
                    int k = r.nextInt(100);
                    if (k < 8) {
                        dense = r.nextInt(2000); // watch every cycle for a while
                        observeAt = ref.cycles() + 1;
                    } else if (k < 70) {
                        observeAt = ref.cycles() + 1 + r.nextInt(200);
                    } else {
                        observeAt = ref.cycles() + 1 + r.nextInt(60_000);
                    }
                    int e = r.nextInt(1000);
                    if (e < 3) {
                        lazy.reset();
                        ref.reset();
                    } else if (e < 6) {
                        // A snapshot of the lazy engine loaded into a fresh one continues identically.
                        Snapshots s = new Snapshots(lazy);
                        byte[] data = s.save();
                        // The reference is reloaded from the same snapshot (audio output restarts in both).
                        lazy = console(prg);
                        new Snapshots(lazy).load(data);
                        ref = console(prg);
                        new Snapshots(ref).load(data);
                        ref.apu().setEager(true);
                    } else if (e < 40) {
                        // A write from outside the CPU (a debugger), as if during the last cycle.
                        int reg = r.nextInt(0x18);
                        if (reg != 0x14 && reg != 0x16) {
                            int v = value(reg, r);
                            lazy.apu().write(0x4000 + reg, v);
                            ref.apu().write(0x4000 + reg, v);
                        }
                    }
                }
            }
        }
        assertSame(lazy, ref, name + " end", true);
        assertTrue(observations > 50, "observations " + observations);
    }

    @Test
    void lazyApuMatchesTheEagerReferenceOnRandomPrograms() throws Exception {
        for (long seed = 1; seed <= 16; seed++) {
            run(seed, 400_000);
        }
    }

    /**
     * A program that writes the DMC's control registers while a fetched byte waits in its
     * buffer for the silent shift register to run out: a new rate moves the expiry that takes
     * the byte (and asks for the next), so a span of quiet cycles found before the write must
     * not outlast it. The rate goes both ways, at delays of every length from the fetch.
     */
    static byte[] dmcControlPrograms(Random r) {
        byte[] prg = new byte[0x8000];
        Arrays.fill(prg, (byte) 0xEA);
        Asm a = new Asm(prg, 0x8000);
        a.op(0x78); // SEI
        int loop = a.pc;
        while (a.pc < 0xE000) {
            a.op(0xA9, r.nextInt(16)); // LDA #rate, IRQ off, no loop
            a.op(0x8D, 0x10, 0x40); // STA $4010
            a.op(0xA9, r.nextInt(4)); // LDA #length
            a.op(0x8D, 0x13, 0x40); // STA $4013
            a.op(0xA9, 0x10); // LDA #$10: start the sample, the buffer fills at once
            a.op(0x8D, 0x15, 0x40); // STA $4015
            a.op(0xA2, 1 + r.nextInt(255)); // LDX #n
            a.op(0xCA); // DEX
            a.op(0xD0, 0xFD); // BNE -3
            a.op(0xA9, r.nextInt(16) | (r.nextInt(4) == 0 ? 0x40 : 0)); // LDA #rate (sometimes looping)
            a.op(0x8D, 0x10 + 2 * r.nextInt(2), 0x40); // STA $4010 or $4012
            a.op(0xA9, r.nextInt(256)); // LDA #address or length
            a.op(0x8D, 0x12 + r.nextInt(2), 0x40); // STA $4012 or $4013
            a.op(0xA2, 1 + r.nextInt(255)); // LDX #n
            a.op(0xCA); // DEX
            a.op(0xD0, 0xFD); // BNE -3
        }
        a.op(0x4C, loop & 0xFF, loop >> 8); // JMP loop
        prg[0x7FFC] = 0x00;
        prg[0x7FFD] = (byte) 0x80;
        return prg;
    }

    @Test
    void dmcControlWritesCutTheQuietSpan() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            Random r = new Random(seed);
            run(dmcControlPrograms(r), r, "DMC control seed " + seed, 1_000_000);
        }
    }

    @Test
    void theProgramsExerciseTheApu() throws Exception {
        // The random programs must actually make sound, raise IRQs and run DMC DMA, or the
        // comparison above proves little.
        int irqs = 0;
        int dmcFetches = 0;
        int loud = 0;
        for (long seed = 1; seed <= 4; seed++) {
            Console c = console(program(new Random(seed)));
            boolean lastIrq = false;
            int lastRemaining = 0;
            for (int i = 0; i < 400_000; i++) {
                c.runCycle();
                boolean irq = c.apu().irq();
                if (irq && !lastIrq) {
                    irqs++;
                }
                lastIrq = irq;
                if ((i & 63) == 0) {
                    int remaining = c.apu().dmc().bytesRemaining;
                    if (remaining != lastRemaining) {
                        dmcFetches++;
                    }
                    lastRemaining = remaining;
                }
            }
            short[] s = new short[1 << 16];
            int n = c.apu().audio().read(s, 0, s.length);
            for (int i = 0; i < n; i++) {
                if (Math.abs(s[i]) > 2000) {
                    loud++;
                }
            }
        }
        assertTrue(irqs > 20, "IRQs raised: " + irqs);
        assertTrue(dmcFetches > 20, "DMC progress seen: " + dmcFetches);
        assertTrue(loud > 1000, "loud samples: " + loud);
    }

    @Test
    void aMismatchIsDetected() {
        // The comparison can fail: a reference with one extra APU cycle differs.
        byte[] prg = program(new Random(3));
        Console lazy = console(prg);
        Console ref = console(prg);
        ref.apu().setEager(true);
        for (int i = 0; i < 50_000; i++) {
            lazy.runCycle();
            ref.runCycle();
        }
        ref.apu().cycle();
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> assertSame(lazy, ref, "tampered", true));
        assertTrue(e.getMessage().contains("tampered"), e.getMessage());
    }
}
