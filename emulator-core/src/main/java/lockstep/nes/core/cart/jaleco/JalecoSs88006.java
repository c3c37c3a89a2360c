package lockstep.nes.core.cart.jaleco;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 18: Jaleco SS88006. Every register takes a nibble: $8000-$8003 and $9000-$9001 the
 * 8 KiB PRG banks at $8000, $A000 and $C000 (low/high nibble; $E000 is the last bank), $9002
 * PRG-RAM enable (bit 0) and write enable (bit 1), $A000-$D003 eight 1 KiB CHR banks, $E000-$E003
 * the 16-bit IRQ reload value, $F000 reload + acknowledge, $F001 IRQ enable (bit 0) and counter
 * width (bit 3: 4 bits, bit 2: 8, bit 1: 12, else 16) + acknowledge, $F002 mirroring
 * (horizontal, vertical, one-screen A, B). The counter's selected low bits decrement every CPU
 * cycle while enabled; reaching 0 raises the IRQ. The ADPCM sound chip is not modelled.
 */
public final class JalecoSs88006 extends Mapper {
    private static final int[] WIDTH_MASK = {0xFFFF, 0x0FFF, 0x00FF, 0x000F};

    private final int[] prgRegs = new int[3];
    private final int[] chrRegs = new int[8];
    private int ramControl;
    private int mirror;
    private int irqReload;
    private int irqCounter;
    private int irqWidth;
    private boolean irqEnabled;
    private boolean irqLine;

    public JalecoSs88006(Cartridge cart) {
        super(cart);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ;
    }

    @Override
    public void cpuCycle() {
        if (irqEnabled) {
            int mask = WIDTH_MASK[irqWidth];
            int low = ((irqCounter & mask) - 1) & mask;
            irqCounter = (irqCounter & ~mask) | low;
            if (low == 0) {
                irqLine = true;
            }
        }
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    private static int nibble(int old, int value, boolean high) {
        return high ? (old & 0x0F) | ((value & 0x0F) << 4) : (old & 0xF0) | (value & 0x0F);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        int reg = addr & 3;
        boolean high = (reg & 1) != 0;
        switch (addr & 0xF000) {
            case 0x8000 -> prgRegs[reg >> 1] = nibble(prgRegs[reg >> 1], value, high);
            case 0x9000 -> {
                if (reg < 2) {
                    prgRegs[2] = nibble(prgRegs[2], value, high);
                } else if (reg == 2) {
                    ramControl = value & 3;
                } else {
                    return;
                }
            }
            case 0xA000, 0xB000, 0xC000, 0xD000 -> {
                int bank = ((addr >> 12) - 0xA) * 2 + (reg >> 1);
                chrRegs[bank] = nibble(chrRegs[bank], value, high);
            }
            case 0xE000 -> {
                int shift = reg * 4;
                irqReload = (irqReload & ~(0xF << shift)) | ((value & 0x0F) << shift);
                return;
            }
            default -> {
                switch (reg) {
                    case 0 -> {
                        irqCounter = irqReload;
                        irqLine = false;
                    }
                    case 1 -> {
                        irqEnabled = (value & 1) != 0;
                        irqWidth = (value & 8) != 0 ? 3 : (value & 4) != 0 ? 2 : (value & 2) != 0 ? 1 : 0;
                        irqLine = false;
                    }
                    case 2 -> {
                        mirror = value & 3;
                        updateBanks();
                    }
                    default -> {
                    }
                }
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 3; i++) {
            prgRegs[i] = 0;
        }
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
        ramControl = 0;
        mirror = 0;
        irqReload = 0;
        irqCounter = 0;
        irqWidth = 0;
        irqEnabled = false;
        irqLine = false;
    }

    @Override
    protected void updateBanks() {
        for (int i = 0; i < 3; i++) {
            prg8(i, prgRegs[i]);
        }
        prg8(3, -1);
        for (int i = 0; i < 8; i++) {
            chr1(i, chrRegs[i]);
        }
        switch (mirror) {
            case 0 -> mirroring(Mirroring.HORIZONTAL);
            case 1 -> mirroring(Mirroring.VERTICAL);
            case 2 -> mirroring(Mirroring.SINGLE_A);
            default -> mirroring(Mirroring.SINGLE_B);
        }
        boolean ram = (ramControl & 1) != 0;
        prgRamBank(0, ram, ram && (ramControl & 2) != 0);
    }

    /** Only the IRQ counter's fields move outside writes. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    /**
     * The word after the three PRG and eight CHR banks: RAM control, mirroring and the IRQ's fields,
     * packed as the digest packs them.
     */
    @Override
    protected long hotDigestTerm() {
        long word = ramControl & 0xFF;
        word = word << 8 | (mirror & 0xFF);
        word = word << 16 | (irqReload & 0xFFFF);
        word = word << 16 | (irqCounter & 0xFFFF);
        word = word << 8 | (irqWidth & 0xFF);
        word = word << 1 | (irqEnabled ? 1 : 0);
        word = word << 1 | (irqLine ? 1 : 0);
        return digestWeight(11) * word;
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("prgRegs", prgRegs, 0, 0xFF);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        ramControl = s.u8("ramControl", ramControl);
        mirror = s.u8("mirror", mirror);
        irqReload = s.u16("irqReload", irqReload);
        irqCounter = s.u16("irqCounter", irqCounter);
        irqWidth = s.u8("irqWidth", irqWidth, 3);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqLine = s.bool("irqLine", irqLine);
    }
}
