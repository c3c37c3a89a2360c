package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
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
}
