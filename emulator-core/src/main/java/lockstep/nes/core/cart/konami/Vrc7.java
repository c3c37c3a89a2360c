package lockstep.nes.core.cart.konami;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 85: Konami VRC7 (NESdev "VRC7"), with its FM sound ({@link Vrc7Audio}). Registers
 * decode A12-A15 and one more line, A4 on the VRC7a (NES 2.0 submapper 2), A3 on the VRC7b
 * (submapper 1), either without a submapper:
 * <pre>
 *  $8000 / $8010   8 KiB PRG banks at $8000 / $A000      $9000 8 KiB PRG bank at $C000 ($E000: the last)
 *  $9010 / $9030   sound register select / data
 *  $A000-$D010     eight 1 KiB CHR banks ($A000, $A010, $B000, ... $D010)
 *  $E000           RS.. ..MM: PRG-RAM enable (R), sound held in reset (S), mirroring (V, H, A, B)
 *  $E010 / $F000 / $F010   VRC IRQ latch / control / acknowledge
 * </pre>
 */
public final class Vrc7 extends VrcSoundBoard {
    /** The address line that selects a register's second half: A4, A3, or either. */
    private final int lineMask;

    private final int[] prgRegs = new int[3];
    private final int[] chrRegs = new int[8];
    private int control;
    private final Vrc7Audio audio;

    public Vrc7(Cartridge cart) {
        this(cart, new Vrc7Audio());
    }

    private Vrc7(Cartridge cart, Vrc7Audio audio) {
        super(cart, audio);
        this.audio = audio;
        final int sub = cart.submapper();
        this.lineMask = sub == 1 ? 0x08 : sub == 2 ? 0x10 : 0x18;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        final int second = (addr & lineMask) != 0 ? 1 : 0;
        switch (addr >> 12) {
            case 0x8 -> prgRegs[second] = value & 0x3F;
            case 0x9 -> {
                if (second == 0) {
                    prgRegs[2] = value & 0x3F;
                } else {
                    // The sound ports decode A5 too: $9010 selects, $9030 writes.
                    if ((addr & 0x20) == 0) {
                        audio.writeSelect(value);
                    } else {
                        audio.writeData(value);
                    }
                    return;
                }
            }
            case 0xA, 0xB, 0xC, 0xD -> chrRegs[((addr >> 12) - 0xA) * 2 + second] = value;
            case 0xE -> {
                if (second == 0) {
                    if (((control ^ value) & 0x40) != 0) {
                        audio.writeReset((value & 0x40) != 0);
                    }
                    control = value;
                } else {
                    irq.writeLatch(value);
                    return;
                }
            }
            default -> {
                if (second == 0) {
                    irq.writeControl(value);
                } else {
                    irq.acknowledge();
                }
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        java.util.Arrays.fill(prgRegs, 0);
        java.util.Arrays.fill(chrRegs, 0);
        control = 0;
        irq.power();
        audio.power();
    }

    @Override
    protected void updateBanks() {
        prg8(0, prgRegs[0]);
        prg8(1, prgRegs[1]);
        prg8(2, prgRegs[2]);
        prg8(3, -1);
        for (int i = 0; i < 8; i++) {
            chr1(i, chrRegs[i]);
        }
        mirroring(Mirroring.vhab(control & 3));
        final boolean ram = (control & 0x80) != 0;
        prgRamBank(0, ram, ram);
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("prgRegs", prgRegs, 0, 0x3F);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        control = s.u8("control", control);
        irq.state(s);
        audio.state(s);
    }
}
