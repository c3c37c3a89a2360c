package lockstep.nes.core.cart.bandai;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 16: Bandai FCG-1/FCG-2 (registers at $6000-$7FFF, submapper 4) and LZ93D50 ($8000-$FFFF,
 * submapper 5); without a submapper both ranges answer. Registers by A0-A3: 0-7 1 KiB CHR banks,
 * 8 the 16 KiB PRG bank at $8000 ($C000 is the last), 9 mirroring (vertical, horizontal,
 * one-screen A, B), A IRQ enable (acknowledges; the LZ93D50 also copies the latch to the
 * counter), B/C the counter's low/high byte (the LZ93D50's latch). The counter decrements every
 * CPU cycle while enabled and raises the IRQ as it passes 0. The serial EEPROM is not modelled
 * (its reads return open bus).
 */
public final class BandaiFcg extends Mapper {
    private final int submapper;

    private final int[] chrRegs = new int[8];
    private int prgBank;
    private int mirror;
    private boolean irqEnabled;
    private int irqCounter;
    private int irqLatch;
    private boolean irqLine;

    public BandaiFcg(Cartridge cart) {
        super(cart, 0);
        this.submapper = cart.submapper();
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ;
    }

    @Override
    public void cpuCycle() {
        if (irqEnabled) {
            if (irqCounter == 0) {
                irqLine = true;
            }
            irqCounter = (irqCounter - 1) & 0xFFFF;
        }
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        boolean fcg = addr >= 0x6000 && addr < 0x8000 && submapper != 5;
        boolean lz = addr >= 0x8000 && submapper != 4;
        if (!fcg && !lz) {
            return;
        }
        int reg = addr & 0x0F;
        switch (reg) {
            case 0, 1, 2, 3, 4, 5, 6, 7 -> chrRegs[reg] = value;
            case 8 -> prgBank = value & 0x0F;
            case 9 -> mirror = value & 3;
            case 10 -> {
                irqEnabled = (value & 1) != 0;
                irqLine = false;
                if (lz) {
                    irqCounter = irqLatch;
                }
                return;
            }
            case 11 -> {
                irqLatch = (irqLatch & 0xFF00) | value;
                if (fcg || submapper == 0) {
                    irqCounter = (irqCounter & 0xFF00) | value;
                }
                return;
            }
            case 12 -> {
                irqLatch = (irqLatch & 0x00FF) | (value << 8);
                if (fcg || submapper == 0) {
                    irqCounter = (irqCounter & 0x00FF) | (value << 8);
                }
                return;
            }
            default -> {
                return; // EEPROM
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
        prgBank = 0;
        mirror = 0;
        irqEnabled = false;
        irqCounter = 0;
        irqLatch = 0;
        irqLine = false;
    }

    @Override
    protected void updateBanks() {
        prg16(0, prgBank);
        prg16(1, -1);
        for (int i = 0; i < 8; i++) {
            chr1(i, chrRegs[i]);
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
     * The word after the eight CHR banks: PRG bank, mirroring and the IRQ's fields, packed as the
     * digest packs them.
     */
    @Override
    protected long hotDigestTerm() {
        long word = prgBank & 0xFF;
        word = word << 8 | (mirror & 0xFF);
        word = word << 1 | (irqEnabled ? 1 : 0);
        word = word << 16 | (irqCounter & 0xFFFF);
        word = word << 16 | (irqLatch & 0xFFFF);
        word = word << 1 | (irqLine ? 1 : 0);
        return digestWeight(8) * word;
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        prgBank = s.u8("prgBank", prgBank);
        mirror = s.u8("mirror", mirror);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqCounter = s.u16("irqCounter", irqCounter);
        irqLatch = s.u16("irqLatch", irqLatch);
        irqLine = s.bool("irqLine", irqLine);
    }
}
