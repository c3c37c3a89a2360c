package lockstep.nes.core.cart.sunsoft;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 69: Sunsoft FME-7, 5A and 5B (the 5B's sound: {@link Sunsoft5bAudio}, $C000-$FFFF; the
 * FME-7 and 5A have none, and nothing is written there then). $8000 selects a command, $A000
 * writes its parameter: 0-7 1 KiB CHR banks; 8 the $6000 page (bits 0-5 bank, bit 6 RAM
 * instead of ROM, bit 7 RAM enable); 9-B 8 KiB PRG banks at $8000-$C000 ($E000 is the last);
 * C mirroring (vertical, horizontal, one-screen A, B); D IRQ control (bit 0 IRQ enable, bit 7
 * counter enable; the write acknowledges the IRQ); E/F counter low/high. The 16-bit counter
 * decrements every CPU cycle while enabled and raises the IRQ when it wraps from 0 to $FFFF.
 */
public final class Fme7 extends Mapper {
    private int command;
    private final int[] chrRegs = new int[8];
    private final int[] prgRegs = new int[4]; // 0: $6000 control, 1-3: $8000, $A000, $C000
    private int mirror;
    private int irqControl;
    private int irqCounter;
    private boolean irqLine;
    private final Sunsoft5bAudio audio = new Sunsoft5bAudio();

    public Fme7(Cartridge cart) {
        super(cart);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.CPU_READ | BoardHooks.CPU_READ_BELOW_8000
                | BoardHooks.AUDIO;
    }

    @Override
    public ExpansionAudio expansionAudio() {
        return audio;
    }

    @Override
    public void cpuCycle() {
        if ((irqControl & 0x80) != 0) {
            irqCounter = (irqCounter - 1) & 0xFFFF;
            if (irqCounter == 0xFFFF && (irqControl & 1) != 0) {
                irqLine = true;
            }
        }
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    @Override
    public int cpuRead(int addr) {
        if (addr >= 0x6000 && addr < 0x8000 && (prgRegs[0] & 0x40) == 0) {
            // ROM at $6000.
            return prg[(Math.floorMod(prgRegs[0] & 0x3F, prgBanks) << 13) | (addr & 0x1FFF)] & 0xFF;
        }
        return super.cpuRead(addr);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        if (addr < 0xA000) {
            command = value & 0x0F;
            return;
        }
        if (addr >= 0xE000) {
            audio.writeData(value);
            return;
        }
        if (addr >= 0xC000) {
            audio.writeSelect(value);
            return;
        }
        switch (command) {
            case 0, 1, 2, 3, 4, 5, 6, 7 -> chrRegs[command] = value;
            case 8, 9, 10, 11 -> prgRegs[command - 8] = value;
            case 12 -> mirror = value & 3;
            case 13 -> {
                irqControl = value;
                irqLine = false;
            }
            case 14 -> irqCounter = (irqCounter & 0xFF00) | value;
            default -> irqCounter = (irqCounter & 0x00FF) | (value << 8);
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        command = 0;
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
        for (int i = 0; i < 4; i++) {
            prgRegs[i] = 0;
        }
        mirror = 0;
        irqControl = 0;
        irqCounter = 0;
        irqLine = false;
        audio.power();
    }

    @Override
    protected void updateBanks() {
        for (int i = 0; i < 8; i++) {
            chr1(i, chrRegs[i]);
        }
        prg8(0, prgRegs[1] & 0x3F);
        prg8(1, prgRegs[2] & 0x3F);
        prg8(2, prgRegs[3] & 0x3F);
        prg8(3, -1);
        mirroring(Mirroring.vhab(mirror));
        boolean ram = (prgRegs[0] & 0xC0) == 0xC0;
        prgRamBank(prgRegs[0] & 0x3F, ram, ram);
    }

    @Override
    protected void registers(StateVisitor s) {
        command = s.u8("command", command, 15);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        s.ints("prgRegs", prgRegs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        irqControl = s.u8("irqControl", irqControl);
        irqCounter = s.u16("irqCounter", irqCounter);
        irqLine = s.bool("irqLine", irqLine);
        audio.state(s);
    }
}
