package lockstep.nes.core.cart.konami;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 73: Konami VRC3 (Salamander). $F000 bits 0-2 the 16 KiB PRG bank at $8000 ($C000 is the
 * last bank), 8 KiB PRG-RAM at $6000, 8 KiB CHR-RAM, hardwired nametables. $8000, $9000, $A000,
 * $B000 write the IRQ latch 4 bits at a time (bits 0-3, 4-7, 8-11, 12-15). $C000 is the IRQ
 * control (bit 0 enable after acknowledge, bit 1 enable, bit 2 8-bit mode): the write
 * acknowledges the IRQ, and with bit 1 set reloads the counter from the latch. $D000
 * acknowledges and moves bit 0 into the enable.
 *
 * <p>While enabled, the counter counts up every CPU cycle. In 16-bit mode it raises the IRQ when
 * it overflows from $FFFF and is reloaded from the latch; in 8-bit mode only its low byte counts,
 * overflowing from $FF into the latch's low byte, and the high byte holds.
 */
public final class Vrc3 extends Mapper {
    private int prgBank;
    private int latch;
    private int control;
    private int counter;
    private boolean irqLine;

    public Vrc3(Cartridge cart) {
        super(cart, Math.max(8192, cart.totalPrgRamSize()));
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ;
    }

    @Override
    public void cpuCycle() {
        if ((control & 2) == 0) {
            return;
        }
        if ((control & 4) == 0) {
            if (counter == 0xFFFF) {
                counter = latch;
                irqLine = true;
            } else {
                counter++;
            }
        } else if ((counter & 0xFF) == 0xFF) {
            counter = (counter & 0xFF00) | (latch & 0xFF);
            irqLine = true;
        } else {
            counter++;
        }
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        final int nibble = value & 0x0F;
        switch (addr >> 12) {
            case 0x8 -> latch = (latch & 0xFFF0) | nibble;
            case 0x9 -> latch = (latch & 0xFF0F) | (nibble << 4);
            case 0xA -> latch = (latch & 0xF0FF) | (nibble << 8);
            case 0xB -> latch = (latch & 0x0FFF) | (nibble << 12);
            case 0xC -> {
                control = value & 7;
                if ((value & 2) != 0) {
                    counter = latch;
                }
                irqLine = false;
            }
            case 0xD -> {
                irqLine = false;
                control = (control & 5) | ((control & 1) << 1);
            }
            case 0xF -> {
                prgBank = value & 7;
                updateBanks();
            }
            default -> {
            }
        }
    }

    @Override
    protected void powerOn() {
        prgBank = 0;
        latch = 0;
        control = 0;
        counter = 0;
        irqLine = false;
    }

    @Override
    protected void updateBanks() {
        prg16(0, prgBank);
        prg16(1, -1);
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    /** Only the IRQ counter's fields move outside writes. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    /**
     * All the registers are one word: PRG bank, latch, control, counter and line, packed as the
     * digest packs them.
     */
    @Override
    protected long hotDigestTerm() {
        long word = prgBank & 0xFF;
        word = word << 16 | (latch & 0xFFFF);
        word = word << 8 | (control & 0xFF);
        word = word << 16 | (counter & 0xFFFF);
        word = word << 1 | (irqLine ? 1 : 0);
        return digestWeight(0) * word;
    }

    @Override
    protected void registers(StateVisitor s) {
        prgBank = s.u8("prgBank", prgBank);
        latch = s.u16("latch", latch);
        control = s.u8("control", control);
        counter = s.u16("counter", counter);
        irqLine = s.bool("irqLine", irqLine);
    }
}
