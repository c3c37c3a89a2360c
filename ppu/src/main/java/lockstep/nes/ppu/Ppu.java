package lockstep.nes.ppu;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The 2C02 PPU, stepped one dot at a time.
 *
 * <p>Scanlines: 0-239 visible, 240 post-render, 241-260 vertical blank, 261 pre-render.
 * Dots 0-340. The frame counter increments when scanline 241 begins (the picture is done).
 *
 * <p>TODO(ppu issue): this is the timing skeleton only (counters, vblank, NMI).
 */
public final class Ppu implements Stateful {
    public static final int WIDTH = 256;
    public static final int HEIGHT = 240;

    private final PpuBus bus;
    private final short[] frame = new short[WIDTH * HEIGHT];

    private int scanline;
    private int dot;
    private long frameCount;
    private boolean oddFrame;
    private int ctrl;
    private int mask;
    private boolean vblank;
    private boolean nmiOutput;

    public Ppu(PpuBus bus) {
        this.bus = bus;
    }

    public void power() {
        scanline = 0;
        dot = 0;
        frameCount = 0;
        oddFrame = false;
        ctrl = 0;
        mask = 0;
        vblank = false;
        updateNmi();
    }

    public void reset() {
        ctrl = 0;
        mask = 0;
        updateNmi();
    }

    /** Advances one dot. */
    public void step() {
        if (++dot > 340) {
            dot = 0;
            if (++scanline > 261) {
                scanline = 0;
                oddFrame = !oddFrame;
            }
            if (scanline == 241) {
                frameCount++;
            }
        }
        if (dot == 1) {
            if (scanline == 241) {
                vblank = true;
                updateNmi();
            } else if (scanline == 261) {
                vblank = false;
                updateNmi();
            }
        }
    }

    private void updateNmi() {
        nmiOutput = vblank && (ctrl & 0x80) != 0;
    }

    /** A CPU read of register {@code reg} (0..7), with its side effects. */
    public int readRegister(int reg) {
        if (reg == 2) {
            int v = vblank ? 0x80 : 0;
            vblank = false;
            updateNmi();
            return v;
        }
        return 0;
    }

    /** Register value without side effects (for debuggers and the verifier). */
    public int peekRegister(int reg) {
        return reg == 2 ? (vblank ? 0x80 : 0) : 0;
    }

    public void writeRegister(int reg, int value) {
        switch (reg) {
            case 0 -> {
                ctrl = value;
                updateNmi();
            }
            case 1 -> mask = value;
            default -> {
            }
        }
    }

    /** True while the PPU pulls /NMI low. */
    public boolean nmiOutput() {
        return nmiOutput;
    }

    public int scanline() {
        return scanline;
    }

    public int dot() {
        return dot;
    }

    public long frameCount() {
        return frameCount;
    }

    /** The picture: 256x240 9-bit values (palette index | emphasis << 6). */
    public short[] frame() {
        return frame;
    }

    @Override
    public void state(StateVisitor s) {
        scanline = s.i32("scanline", scanline);
        dot = s.i32("dot", dot);
        frameCount = s.i64("frameCount", frameCount);
        oddFrame = s.bool("oddFrame", oddFrame);
        ctrl = s.u8("ctrl", ctrl);
        mask = s.u8("mask", mask);
        vblank = s.bool("vblank", vblank);
        nmiOutput = s.bool("nmiOutput", nmiOutput);
    }
}
