package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import lockstep.nes.core.Console;
import lockstep.nes.state.DigestTerm;
import org.junit.jupiter.api.Test;

/** The DMC driven through a running console (its sample bytes arrive by DMA). */
class DmcTest {

    private static Console started(int control, int length) {
        Console c = TestCarts.nopConsole();
        for (int i = 0; i < 20; i++) {
            c.runCycle();
        }
        Apu apu = c.apu();
        apu.write(0x4017, 0x40); // no frame IRQ: only the DMC can interrupt
        apu.write(0x4010, control);
        apu.write(0x4012, 0x00);
        apu.write(0x4013, length);
        apu.write(0x4015, 0x10);
        return c;
    }

    @Test
    void oneByteSampleEndsWithAnIrq() {
        Console c = started(0x8F, 0);
        assertEquals(0x10, c.apu().peek(0x4015, 0) & 0x90);
        for (int i = 0; i < 200 && !c.apu().irq(); i++) {
            c.runCycle();
        }
        assertTrue(c.apu().irq());
        assertEquals(0x80, c.apu().peek(0x4015, 0) & 0x90, "IRQ flag set, sample done");
        c.apu().write(0x4015, 0x00);
        assertFalse(c.apu().irq(), "a $4015 write acknowledges the DMC IRQ");
    }

    @Test
    void loopingSampleNeverEndsNorInterrupts() {
        Console c = started(0xCF, 1); // IRQ enabled but looping: 17 bytes, forever
        for (int i = 0; i < 100_000; i++) {
            c.runCycle();
            assertFalse(c.apu().irq());
        }
        assertEquals(0x10, c.apu().peek(0x4015, 0) & 0x10);
    }

    @Test
    void sampleLengthIs16TimesPlusOneBytes() {
        // Rate $F = 54 cycles per bit: 17 bytes take about 17 * 8 * 54 = 7344 cycles.
        Console c = started(0x0F, 1);
        int cycles = 0;
        while ((c.apu().peek(0x4015, 0) & 0x10) != 0 && cycles < 100_000) {
            c.runCycle();
            cycles++;
        }
        assertTrue(cycles > 16 * 8 * 54 && cycles < 18 * 8 * 54, "cycles " + cycles);
    }

    @Test
    void directLoadSetsTheOutputLevel() {
        Dmc dmc = new Dmc(TestCarts.nopConsole().dma());
        dmc.power();
        dmc.write(1, 0xC5);
        assertEquals(0x45, dmc.level);
    }

    @Test
    void outputUnitMovesTheLevelByTwoPerBit() {
        Console c = started(0x0F, 0); // one byte from $C000: a NOP cartridge, $EA = 11101010
        c.apu().write(0x4011, 64);
        int[] levels = new int[20];
        int n = 0;
        int last = 64;
        for (int i = 0; i < 54 * 30 && n < levels.length; i++) {
            c.runCycle();
            int l = dmcLevel(c);
            if (l != last) {
                levels[n++] = l - last;
                last = l;
            }
        }
        // $EA sent LSB first: 0,1,0,1,0,1,1,1 -> -2,+2,-2,+2,-2,+2,+2,+2
        int[] expected = {-2, 2, -2, 2, -2, 2, 2, 2};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], levels[i], "bit " + i);
        }
    }

    private static int dmcLevel(Console c) {
        return c.apu().dmc().level;
    }

    /**
     * A write to $4010-$4013 while the DMC's cached term is valid adds the register's difference
     * to it: the DMC's term and the APU's term as it stands (not caught up, as a verifying
     * stretch folds it) stay the ones their descriptions define, after every write, with the
     * sample playing (its address, length and IRQ flag moving) between writes.
     */
    @Test
    void registerWritesKeepTheCachedTermExact() {
        Console c = started(0x8F, 0x10);
        Apu apu = c.apu();
        Random r = new Random(7);
        for (int i = 0; i < 3000; i++) {
            final int reg = 0x4010 + r.nextInt(4);
            final int value = r.nextInt(256);
            // The caches valid before the write ($4012 and $4013 writes do not catch the APU up;
            // $4010 and $4011 writes do, which may step the DMC first).
            apu.dmc().digestTerm();
            apu.representedTerm();
            apu.write(reg, value);
            final String where = "write " + i + " of $" + Integer.toHexString(value) + " to $" + Integer.toHexString(reg);
            // The fast terms first: a visit of the description drops the caches.
            final long dmcTerm = apu.dmc().digestTerm();
            final long apuTerm = apu.representedTerm();
            assertEquals(new DigestTerm().term(apu.dmc(), false), dmcTerm, where + ": DMC");
            assertEquals(new DigestTerm().term(apu, false), apuTerm, where + ": APU");
            for (int k = r.nextInt(60); k > 0; k--) {
                c.runCycle();
            }
            if (r.nextInt(8) == 0) {
                apu.write(0x4015, 0x10); // restart the sample when it ended
            }
        }
    }
}
