package lockstep.nes.core.cart.konami;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mappers 24 (VRC6a) and 26 (VRC6b, A0 and A1 swapped), with their sound ({@link Vrc6Audio},
 * $9000-$B002). $8000 a
 * 16 KiB PRG bank at $8000, $C000 an 8 KiB bank at $C000 ($E000 is the last), $D000-$E003 eight
 * 1 KiB CHR banks, $B003 mirroring (bits 2-3: vertical, horizontal, one-screen A, B) and PRG-RAM
 * enable (bit 7), $F000-$F002 the VRC IRQ (latch, control, acknowledge), which counts scanlines
 * through a 341-dot prescaler or CPU cycles. Only the usual CHR mode (eight 1 KiB banks) is
 * modelled.
 */
public final class Vrc6 extends VrcSoundBoard {
    private final boolean swapLines;

    private int prg16;
    private int prg8;
    private int control;
    private final int[] chrRegs = new int[8];
    private final Vrc6Audio audio;

    public Vrc6(Cartridge cart) {
        this(cart, new Vrc6Audio());
    }

    private Vrc6(Cartridge cart, Vrc6Audio audio) {
        super(cart, audio);
        this.audio = audio;
        this.swapLines = cart.mapperNumber() == 26;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        int reg = swapLines ? ((addr & 1) << 1) | ((addr >> 1) & 1) : addr & 3;
        switch (addr >> 12) {
            case 0x8 -> prg16 = value & 0x0F;
            case 0x9, 0xA -> {
                if (reg < 3 || addr >> 12 == 0x9) {
                    audio.write((addr >> 12) - 0x9, reg, value);
                }
                return;
            }
            case 0xB -> {
                if (reg == 3) {
                    control = value;
                } else {
                    audio.write(2, reg, value);
                    return;
                }
            }
            case 0xC -> prg8 = value & 0x1F;
            case 0xD -> chrRegs[reg] = value;
            case 0xE -> chrRegs[4 + reg] = value;
            case 0xF -> {
                switch (reg) {
                    case 0 -> irq.writeLatch(value);
                    case 1 -> irq.writeControl(value);
                    case 2 -> irq.acknowledge();
                    default -> {
                    }
                }
                return;
            }
            default -> {
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        prg16 = 0;
        prg8 = 0;
        control = 0;
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
        irq.power();
        audio.power();
    }

    @Override
    protected void updateBanks() {
        prg16(0, prg16);
        prg8(2, prg8);
        prg8(3, -1);
        for (int i = 0; i < 8; i++) {
            chr1(i, chrRegs[i]);
        }
        mirroring(Mirroring.vhab((control >> 2) & 3));
        boolean ram = (control & 0x80) != 0;
        prgRamBank(0, ram, ram);
    }

    @Override
    protected void registers(StateVisitor s) {
        prg16 = s.u8("prg16", prg16);
        prg8 = s.u8("prg8", prg8);
        control = s.u8("control", control);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        irq.state(s);
        audio.state(s);
    }
}
