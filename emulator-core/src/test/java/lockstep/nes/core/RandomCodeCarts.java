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

    /**
     * Mapper {@code number} running register writes: every 8 KiB bank of its 128 KiB of PRG is
     * {@code LDA #value; STA address} pairs from its start, then {@code JMP $8000}, and ends with
     * the vectors, all pointing at $8000. Whatever bank lands at $8000, the CPU keeps running
     * pairs: a write every 6 cycles, to an address drawn from $8000-$FFFF (the board's
     * registers, IRQ counters' enables among them), or one time in eight to $2001 or $2000 (so
     * that rendering is on and the PPU's fetches reach the board). The values, the addresses and
     * the CHR bytes are drawn from {@code r}.
     */
    public static Cartridge cartWithRegisterWrites(int number, boolean chrRam, Random r) {
        byte[] prg = new byte[128 * 1024];
        for (int bank = 0; bank < prg.length; bank += 0x2000) {
            int i = bank;
            for (; i + 5 <= bank + 0x2000 - 16; i += 5) {
                int pick = r.nextInt(16);
                int address = pick == 0 ? 0x2001 : pick == 1 ? 0x2000 : 0x8000 | r.nextInt(0x8000);
                prg[i] = (byte) 0xA9; // LDA #
                prg[i + 1] = (byte) r.nextInt(256);
                prg[i + 2] = (byte) 0x8D; // STA abs
                prg[i + 3] = (byte) address;
                prg[i + 4] = (byte) (address >> 8);
            }
            prg[i] = (byte) 0x4C; // JMP $8000
            prg[i + 1] = 0x00;
            prg[i + 2] = (byte) 0x80;
            for (int v = bank + 0x2000 - 6; v < bank + 0x2000; v += 2) {
                prg[v] = 0x00; // NMI, reset and IRQ vectors: $8000
                prg[v + 1] = (byte) 0x80;
            }
        }
        byte[] chr = new byte[chrRam ? 0 : 128 * 1024];
        r.nextBytes(chr);
        return new Cartridge("mapper" + number + "-writes.nes", prg, chr, number, Mirroring.VERTICAL, false, 8192,
                chrRam ? 8192 : 0);
    }
}
