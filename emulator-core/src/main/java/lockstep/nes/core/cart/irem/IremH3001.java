package lockstep.nes.core.cart.irem;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 65: Irem H3001. $8000, $A000, $C000 8 KiB PRG banks ($E000 is the last), $9001 bit 7
 * mirroring (vertical, horizontal), $B000-$B007 eight 1 KiB CHR banks, and a 16-bit IRQ counter
 * that decrements every CPU cycle while enabled and raises the IRQ (disabling itself) when it
 * reaches 0: $9003 bit 7 enable, $9004 reload from the latch, $9005/$9006 latch high/low; each of
 * these acknowledges the IRQ.
 */
public final class IremH3001 extends Mapper {
    private final int[] prgRegs = new int[3];
    private final int[] chrRegs = new int[8];
    private int mirror;
    private boolean irqEnabled;
    private int irqCounter;
    private int irqLatch;
    private boolean irqLine;

    public IremH3001(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ;
    }

    @Override
    public void cpuCycle() {
        if (irqEnabled && irqCounter > 0) {
            irqCounter--;
            if (irqCounter == 0) {
                irqEnabled = false;
                irqLine = true;
            }
        }
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        switch (addr & 0xF000) {
            case 0x8000 -> prgRegs[0] = value;
            case 0xA000 -> prgRegs[1] = value;
            case 0xC000 -> prgRegs[2] = value;
            case 0xB000 -> chrRegs[addr & 7] = value;
            case 0x9000 -> {
                switch (addr & 7) {
                    case 1 -> mirror = (value >> 7) & 1;
                    case 3 -> {
                        irqEnabled = (value & 0x80) != 0;
                        irqLine = false;
                    }
                    case 4 -> {
                        irqCounter = irqLatch;
                        irqLine = false;
                    }
                    case 5 -> {
                        irqLatch = (irqLatch & 0x00FF) | (value << 8);
                        irqLine = false;
                    }
                    case 6 -> {
                        irqLatch = (irqLatch & 0xFF00) | value;
                        irqLine = false;
                    }
                    default -> {
                    }
                }
            }
            default -> {
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        prgRegs[0] = 0;
        prgRegs[1] = 1;
        prgRegs[2] = 0xFE;
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
        mirror = 0;
        irqEnabled = false;
        irqCounter = 0;
        irqLatch = 0;
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
        mirroring(mirror != 0 ? Mirroring.HORIZONTAL : Mirroring.VERTICAL);
        prgRamBank(0, false, false);
    }

    /** Only the IRQ counter's fields move outside writes. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    /**
     * The word after the three PRG and eight CHR banks: mirroring and the IRQ's fields, packed as the
     * digest packs them.
     */
    @Override
    protected long hotDigestTerm() {
        long word = mirror & 0xFF;
        word = word << 1 | (irqEnabled ? 1 : 0);
        word = word << 16 | (irqCounter & 0xFFFF);
        word = word << 16 | (irqLatch & 0xFFFF);
        word = word << 1 | (irqLine ? 1 : 0);
        return digestWeight(11) * word;
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("prgRegs", prgRegs, 0, 0xFF);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqCounter = s.u16("irqCounter", irqCounter);
        irqLatch = s.u16("irqLatch", irqLatch);
        irqLine = s.bool("irqLine", irqLine);
    }
}
