package lockstep.nes.core.apu;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;

/** A console whose cartridge is NOPs from $8000 (for driving the APU directly in tests). */
final class TestCarts {
    private TestCarts() {
    }

    static Console nopConsole() {
        byte[] prg = new byte[32768];
        java.util.Arrays.fill(prg, (byte) 0xEA);
        prg[0x7FFC] = 0x00;
        prg[0x7FFD] = (byte) 0x80;
        try {
            return Console.create(new Cartridge("nop", prg, new byte[8192], 0, Mirroring.HORIZONTAL,
                    false, 8192, 0));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
