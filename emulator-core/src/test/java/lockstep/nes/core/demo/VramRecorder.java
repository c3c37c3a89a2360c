package lockstep.nes.core.demo;

import lockstep.nes.core.Console;

/**
 * A test-side model of what the CPU writes into PPU memory: it follows the $2000/$2006/$2007
 * writes (and $2002 reads, which reset the address latch) of a running Console, keeping its own
 * copy of the nametables and palette. It lets the demo's background be checked, and previewed
 * as a picture, independently of the PPU's rendering.
 */
final class VramRecorder {
    final int[] vram = new int[0x4000];
    private int ctrl;
    private int address;
    private boolean secondWrite;

    /** Runs one CPU cycle of {@code c}, recording its PPU register access. */
    void runCycle(Console c) {
        int a = c.cpu().address();
        if (a >= 0x2000 && a < 0x4000) {
            int reg = a & 7;
            if (c.cpu().isWrite()) {
                write(reg, c.cpu().dataOut());
            } else if (reg == 2) {
                secondWrite = false;
            }
        }
        c.runCycle();
    }

    void runFrame(Console c) {
        long f = c.frame();
        while (c.frame() == f) {
            runCycle(c);
        }
    }

    private void write(int reg, int value) {
        switch (reg) {
            case 0 -> ctrl = value;
            case 6 -> {
                address = secondWrite ? (address & 0x3F00) | value : (value & 0x3F) << 8 | (address & 0xFF);
                secondWrite = !secondWrite;
            }
            case 7 -> {
                vram[mirror(address)] = value;
                address = (address + ((ctrl & 4) != 0 ? 32 : 1)) & 0x3FFF;
            }
            default -> {
            }
        }
    }

    /** Horizontal mirroring for the nametables, the palette's backdrop mirrors. */
    private static int mirror(int a) {
        if (a >= 0x3F00) {
            a = 0x3F00 | (a & 0x1F);
            if ((a & 0x13) == 0x10) {
                a &= ~0x10;
            }
            return a;
        }
        if (a >= 0x2000) {
            a = 0x2000 | (a & 0xFFF);
            return a & ~0x400;     // nametable 1 = nametable 0, 3 = 2 (horizontal mirroring)
        }
        return a;
    }

    /** The tile at (col, row) of nametable 0. */
    int tile(int col, int row) {
        return vram[0x2000 + row * 32 + col];
    }

    /** The background palette (0-3) of tile (col, row) of nametable 0. */
    int attribute(int col, int row) {
        int b = vram[0x23C0 + (row / 4) * 8 + col / 4];
        int shift = ((row & 2) << 1) | (col & 2);
        return (b >> shift) & 3;
    }

    int palette(int i) {
        return vram[mirror(0x3F00 + i)];
    }
}
