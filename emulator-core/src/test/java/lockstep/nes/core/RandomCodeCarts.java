package lockstep.nes.core;

import java.util.Random;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;

/** Cartridges of random code for any mapper number, for tests that run every board. */
public final class RandomCodeCarts {
    private RandomCodeCarts() {
    }

    /**
     * Mapper {@code number} with 128 KiB of random PRG (KIL opcodes replaced by NOP, so the CPU
     * keeps running and writes random PPU and board registers) and 128 KiB of random CHR ROM, or
     * 8 KiB of CHR RAM, the bytes drawn from {@code r}.
     */
    public static Cartridge cart(int number, boolean chrRam, Random r) {
        byte[] prg = new byte[128 * 1024];
        r.nextBytes(prg);
        for (int i = 0; i < prg.length; i++) {
            if ((prg[i] & 0x1F) == 0x12 || (prg[i] & 0xFF) == 0x02) {
                prg[i] = (byte) 0xEA;
            }
        }
        byte[] chr = new byte[chrRam ? 0 : 128 * 1024];
        r.nextBytes(chr);
        return new Cartridge("mapper" + number + ".nes", prg, chr, number, Mirroring.VERTICAL, false, 8192,
                chrRam ? 8192 : 0);
    }
}
