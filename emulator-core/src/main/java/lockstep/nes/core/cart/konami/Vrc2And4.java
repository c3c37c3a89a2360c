package lockstep.nes.core.cart.konami;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.part.VrcIrq;
import lockstep.nes.state.StateVisitor;

/**
 * Mappers 21, 22, 23 and 25: Konami VRC2 and VRC4. The chips are the same register set wired to
 * different CPU address lines for their register select (A0/A1 of the chip):
 * <pre>
 *  21: VRC4a A1,A2   VRC4c A6,A7        (submapper 1 = 4a, 2 = 4c)
 *  22: VRC2a A1,A0   (CHR banks count 2 KiB units: the bank number is shifted right)
 *  23: VRC2b A0,A1   VRC4f A0,A1   VRC4e A2,A3   (1 = 4f, 2 = 4e, 3 = 2b)
 *  25: VRC4b A1,A0   VRC4d A3,A2   VRC2c A1,A0   (1 = 4b, 2 = 4d, 3 = 2c)
 * </pre>
 * Without a submapper both wirings of a mapper number are decoded at once (they never clash).
 * Registers: $8000 PRG bank 0, $9000 mirroring, $9002 (VRC4) PRG swap mode, $A000 PRG bank 1,
 * $B000-$E003 eight 1 KiB CHR banks as low/high nibbles, $F000-$F003 (VRC4) the IRQ: latch
 * low/high nibbles, control (E: re-enable on ack, enable, cycle mode) and acknowledge. The IRQ
 * counter counts scanlines through a prescaler (341 PPU dots, 3 per CPU cycle) or CPU cycles.
 */
public final class Vrc2And4 extends Mapper {
    private final int mapper;
    private final int submapper;
    private final boolean vrc2;

    private int prg0;
    private int prg1;
    private int mirror;
    private int swapMode;
    private final int[] chrRegs = new int[8];
    private final VrcIrq irq = new VrcIrq();
    /** VRC2 boards without PRG-RAM have a 1-bit latch at $6000-$6FFF. */
    private int latch6000;

    public Vrc2And4(Cartridge cart) {
        super(cart);
        this.mapper = cart.mapperNumber();
        this.submapper = cart.submapper();
        this.vrc2 = mapper == 22 || (mapper != 21 && submapper == 3);
    }

    /** The chip's register select (0-3) for a CPU address. */
    int select(int addr) {
        int a0 = addr & 1;
        int a1 = (addr >> 1) & 1;
        int a2 = (addr >> 2) & 1;
        int a3 = (addr >> 3) & 1;
        int a6 = (addr >> 6) & 1;
        int a7 = (addr >> 7) & 1;
        return switch (mapper) {
            case 21 -> switch (submapper) {
                case 1 -> a1 | a2 << 1;
                case 2 -> a6 | a7 << 1;
                default -> (a1 | a6) | (a2 | a7) << 1;
            };
            case 22 -> a1 | a0 << 1;
            case 23 -> switch (submapper) {
                case 1, 3 -> a0 | a1 << 1;
                case 2 -> a2 | a3 << 1;
                default -> (a0 | a2) | (a1 | a3) << 1;
            };
            default -> switch (submapper) {
                case 1, 3 -> a1 | a0 << 1;
                case 2 -> a3 | a2 << 1;
                default -> (a1 | a3) | (a0 | a2) << 1;
            };
        };
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.CPU_READ | BoardHooks.CPU_READ_BELOW_8000;
    }

    @Override
    public void cpuCycle() {
        irq.cpuCycle();
    }

    @Override
    public boolean irq() {
        return irq.line();
    }

    /** Only the IRQ counter moves outside writes (reads of the $6000 latch change nothing). */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    /** The IRQ's fields are register word 9, after the four PRG and mirroring bytes and the eight CHR banks. */
    @Override
    protected long hotDigestTerm() {
        return digestWeight(9) * irq.digestWord();
    }

    @Override
    public int cpuRead(int addr) {
        if (prgRam == null && vrc2 && addr >= 0x6000 && addr < 0x7000) {
            // Only D0 is driven; the other bits float at the last bus value, the address high byte.
            return ((addr >> 8) & 0xFE) | latch6000;
        }
        return super.cpuRead(addr);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                if (prgRam == null && vrc2 && addr < 0x7000) {
                    latch6000 = value & 1;
                } else {
                    writePrgRam(addr, value);
                }
            }
            return;
        }
        int reg = select(addr);
        switch (addr >> 12) {
            case 0x8 -> prg0 = value & 0x1F;
            case 0x9 -> {
                if (vrc2) {
                    mirror = value & 1;
                } else if (reg == 0) {
                    mirror = value & 3;
                } else if (reg == 2) {
                    swapMode = (value >> 1) & 1;
                }
            }
            case 0xA -> prg1 = value & 0x1F;
            case 0xB, 0xC, 0xD, 0xE -> {
                int bank = ((addr >> 12) - 0xB) * 2 + (reg >> 1);
                if ((reg & 1) == 0) {
                    chrRegs[bank] = (chrRegs[bank] & 0x1F0) | (value & 0x0F);
                } else {
                    chrRegs[bank] = (chrRegs[bank] & 0x0F) | ((value & 0x1F) << 4);
                }
            }
            default -> {
                if (!vrc2) {
                    writeIrq(reg, value);
                }
                return;
            }
        }
        updateBanks();
    }

    private void writeIrq(int reg, int value) {
        switch (reg) {
            case 0 -> irq.writeLatchLow(value);
            case 1 -> irq.writeLatchHigh(value);
            case 2 -> irq.writeControl(value);
            default -> irq.acknowledge();
        }
    }

    @Override
    protected void powerOn() {
        prg0 = 0;
        prg1 = 0;
        mirror = 0;
        swapMode = 0;
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
        irq.power();
        latch6000 = 0;
    }

    @Override
    protected void updateBanks() {
        if (swapMode != 0) {
            prg8(0, -2);
            prg8(2, prg0);
        } else {
            prg8(0, prg0);
            prg8(2, -2);
        }
        prg8(1, prg1);
        prg8(3, -1);
        for (int i = 0; i < 8; i++) {
            chr1(i, mapper == 22 ? chrRegs[i] >> 1 : chrRegs[i]);
        }
        mirroring(Mirroring.vhab(mirror));
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        prg0 = s.u8("prg0", prg0);
        prg1 = s.u8("prg1", prg1);
        mirror = s.u8("mirror", mirror);
        swapMode = s.u8("swapMode", swapMode);
        s.ints("chrRegs", chrRegs, 0, 0x1FF);
        irq.state(s);
        latch6000 = s.u8("latch6000", latch6000);
    }
}
