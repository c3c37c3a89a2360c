package lockstep.nes.core.cart.sunsoft;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 67: Sunsoft-3. Writes to $8000-$FFFF with A11 set reach the registers by A14-A12: $8800,
 * $9800, $A800, $B800 2 KiB CHR banks at $0000-$1800; $C800 the IRQ counter, written twice (high
 * byte, then low: the count itself, not a reload value); $D800 bit 4 counting on/off, which also
 * resets the write toggle; $E800 bits 0-1 nametables (vertical, horizontal, one-screen A, B);
 * $F800 the 16 KiB PRG bank at $8000 ($C000 is the last bank). Writes with A11 clear acknowledge
 * the IRQ (NESdev: $D800 writes do not). While counting, the counter decrements every CPU cycle;
 * when it wraps from $0000 to $FFFF the IRQ is raised and counting stops.
 */
public final class Sunsoft3 extends Mapper {
    private final int[] chrRegs = new int[4];
    private int prgBank;
    private int mirror;
    private int irqCounter;
    /** True when the next $C800 write is the low byte. */
    private boolean irqLowNext;
    private boolean counting;
    private boolean irqLine;

    public Sunsoft3(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ;
    }

    @Override
    public void cpuCycle() {
        if (counting) {
            irqCounter = (irqCounter - 1) & 0xFFFF;
            if (irqCounter == 0xFFFF) {
                counting = false;
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
        if (addr < 0x8000) {
            return;
        }
        if ((addr & 0x0800) == 0) {
            irqLine = false;
            return;
        }
        switch ((addr >> 12) & 7) {
            case 0, 1, 2, 3 -> {
                chrRegs[(addr >> 12) & 3] = value;
                updateBanks();
            }
            case 4 -> {
                irqCounter = irqLowNext ? (irqCounter & 0xFF00) | value : (irqCounter & 0x00FF) | (value << 8);
                irqLowNext = !irqLowNext;
            }
            case 5 -> {
                counting = (value & 0x10) != 0;
                irqLowNext = false;
            }
            case 6 -> {
                mirror = value & 3;
                updateBanks();
            }
            default -> {
                prgBank = value;
                updateBanks();
            }
        }
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 4; i++) {
            chrRegs[i] = 0;
        }
        prgBank = 0;
        mirror = 0;
        irqCounter = 0;
        irqLowNext = false;
        counting = false;
        irqLine = false;
    }

    @Override
    protected void updateBanks() {
        prg16(0, prgBank);
        prg16(1, -1);
        for (int i = 0; i < 4; i++) {
            chr2(i, chrRegs[i]);
        }
        mirroring(Mirroring.vhab(mirror));
        prgRamBank(0, false, false);
    }

    /** Only the IRQ counter's fields move outside writes. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    /**
     * The word after the four CHR banks: PRG bank, mirroring and the IRQ's fields, packed as the
     * digest packs them.
     */
    @Override
    protected long hotDigestTerm() {
        long word = prgBank & 0xFF;
        word = word << 8 | (mirror & 0xFF);
        word = word << 16 | (irqCounter & 0xFFFF);
        word = word << 1 | (irqLowNext ? 1 : 0);
        word = word << 1 | (counting ? 1 : 0);
        word = word << 1 | (irqLine ? 1 : 0);
        return digestWeight(4) * word;
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        prgBank = s.u8("prgBank", prgBank);
        mirror = s.u8("mirror", mirror);
        irqCounter = s.u16("irqCounter", irqCounter);
        irqLowNext = s.bool("irqLowNext", irqLowNext);
        counting = s.bool("counting", counting);
        irqLine = s.bool("irqLine", irqLine);
    }
}
