package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class ApuResetTest {

    @Test
    void resetSilencesChannelsKeepsTriangleLengthAndMode() {
        Apu apu = TestCarts.nopConsole().apu();
        for (int i = 0; i < 3; i++) {
            apu.cycle();
        }
        apu.write(0x4015, 0x0F);
        apu.write(0x4003, 0x08);
        apu.write(0x4007, 0x08);
        apu.write(0x400B, 0x08);
        apu.write(0x400F, 0x08);
        apu.write(0x4011, 0x7F);
        apu.write(0x4017, 0x80);
        for (int i = 0; i < 10; i++) {
            apu.cycle();
        }
        assertEquals(0x0F, apu.peek(0x4015, 0) & 0x0F);
        apu.reset();
        assertEquals(0x04, apu.peek(0x4015, 0) & 0x1F, "only the triangle's length survives");
        // Disabled: loads are ignored until $4015 enables the channel again.
        apu.write(0x4003, 0x08);
        apu.cycle();
        assertEquals(0, apu.peek(0x4015, 0) & 0x01);
        // Mode 1 is written again: no frame IRQ ever.
        for (int i = 0; i < 40_000; i++) {
            apu.cycle();
            assertFalse(apu.irq());
        }
    }

    @Test
    void resetKeepsOnlyBitZeroOfTheDmcLevelAndRewindsTheTriangle() {
        Dmc dmc = new Dmc(TestCarts.nopConsole().dma());
        dmc.power();
        dmc.write(1, 0x55);
        dmc.reset();
        assertEquals(1, dmc.level);

        Triangle t = new Triangle();
        t.power();
        t.length.setEnabled(true);
        t.write(0, 0x7F);
        t.write(3, 0x08);
        t.length.applyWrites();
        t.quarterFrame();
        for (int i = 0; i < 5; i++) {
            t.step();
        }
        assertEquals(10, t.output());
        t.resetPhase();
        assertEquals(15, t.output());
    }
}
