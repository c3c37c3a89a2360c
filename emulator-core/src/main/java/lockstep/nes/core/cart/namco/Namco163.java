package lockstep.nes.core.cart.namco;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 19: Namco 163 (and 129), with the wavetable sound ({@link Namco163Audio}).
 * <pre>
 *  $4800 data port of the 128-byte internal RAM (address at $F800: bits 0-6, bit 7 auto-increment)
 *  $5000 IRQ counter bits 0-7, $5800 bits 8-14 and bit 7 = enable (readable; writes acknowledge)
 *  $8000-$B800 eight 1 KiB CHR banks; a value >= $E0 picks CIRAM page (value &amp; 1) unless
 *        $E800 bit 6 ($0000 half) / bit 7 ($1000 half) says CHR ROM only
 *  $C000-$D800 four nametables: >= $E0 a CIRAM page, otherwise a 1 KiB CHR ROM bank
 *  $E000/$E800/$F000 bits 0-5: 8 KiB PRG banks at $8000/$A000/$C000 ($E000 is the last)
 * </pre>
 * The 15-bit IRQ counter counts up every CPU cycle while enabled and below $7FFF, raising the
 * IRQ when it reaches $7FFF.
 */
public final class Namco163 extends Mapper {
    private final Memory audioRam = new Memory("audioRam", Memory.MAPPER, 128);
    private final Namco163Audio audio;

    private final int[] chrRegs = new int[12]; // 8 pattern pages then 4 nametables
    private final int[] prgRegs = new int[3];
    private int ramAddress;
    private int irqCounter;
    private boolean irqEnabled;
    private boolean irqLine;
    /** Page table over $0000-$2FFF: a CHR offset, or -1 - (CIRAM offset). Rebuilt from the registers. */
    private final int[] ppuPage = new int[12];

    public Namco163(Cartridge cart) {
        super(cart, Math.max(8192, cart.totalPrgRamSize()));
        // The NES 2.0 submapper names the board's mixing level, or no sound (1, 2).
        this.audio = new Namco163Audio(audioRam, cart.submapper());
    }

    @Override
    public ExpansionAudio expansionAudio() {
        return audio;
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.CPU_READ | BoardHooks.CPU_READ_BELOW_8000
                | BoardHooks.PPU_BUS | BoardHooks.AUDIO;
    }

    @Override
    public void cpuCycle() {
        if (irqEnabled && irqCounter < 0x7FFF) {
            irqCounter++;
            if (irqCounter == 0x7FFF) {
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
        if (addr >= 0x4800 && addr < 0x6000) {
            int v = cpuPeek(addr);
            if (addr < 0x5000 && (ramAddress & 0x80) != 0) {
                ramAddress = 0x80 | ((ramAddress + 1) & 0x7F);
            }
            return v;
        }
        return super.cpuRead(addr);
    }

    @Override
    public int cpuPeek(int addr) {
        if (addr >= 0x4800 && addr < 0x5000) {
            return audio.read(ramAddress & 0x7F);
        }
        if (addr >= 0x5000 && addr < 0x5800) {
            return irqCounter & 0xFF;
        }
        if (addr >= 0x5800 && addr < 0x6000) {
            return (irqCounter >> 8) | (irqEnabled ? 0x80 : 0);
        }
        return super.cpuRead(addr);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x6000) {
            if (addr >= 0x5800) {
                irqCounter = (irqCounter & 0xFF) | ((value & 0x7F) << 8);
                irqEnabled = (value & 0x80) != 0;
                irqLine = false;
            } else if (addr >= 0x5000) {
                irqCounter = (irqCounter & 0x7F00) | value;
                irqLine = false;
            } else if (addr >= 0x4800) {
                audio.write(ramAddress & 0x7F, value);
                if ((ramAddress & 0x80) != 0) {
                    ramAddress = 0x80 | ((ramAddress + 1) & 0x7F);
                }
            }
            return;
        }
        if (addr < 0x8000) {
            writePrgRam(addr, value);
            return;
        }
        if (addr < 0xE000) {
            chrRegs[(addr - 0x8000) >> 11] = value;
        } else if (addr < 0xF800) {
            prgRegs[(addr - 0xE000) >> 11] = value;
            if (addr < 0xE800) {
                audio.writeControl(value);
            }
        } else {
            ramAddress = value;
            return;
        }
        updateBanks();
    }

    /** The page of $0000-$3EFF: 0-7 pattern, 8-11 nametables ($3000-$3EFF mirrors $2000). */
    private static int pageOf(int addr) {
        return addr < 0x2000 ? addr >> 10 : 8 + ((addr >> 10) & 3);
    }

    /**
     * The PPU bus hooks only map CHR and nametables (the IRQ counts CPU cycles): nothing the
     * CPU sees follows the PPU bus, so the PPU may run behind the CPU.
     */
    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        return Integer.MAX_VALUE;
    }

    /** This board's PPU reads change nothing: a peek is a read. */
    @Override
    public int ppuPeek(int addr) {
        return ppuRead(addr);
    }

    @Override
    public int ppuRead(int addr) {
        int page = ppuPage[pageOf(addr)];
        int i = addr & 0x3FF;
        if (page < 0) {
            return ciram.read(-1 - page + i);
        }
        return chrRam == null ? chr[page + i] & 0xFF : chrRam.read(page + i);
    }

    @Override
    public void ppuWrite(int addr, int value) {
        int page = ppuPage[pageOf(addr)];
        int i = addr & 0x3FF;
        if (page < 0) {
            ciram.write(-1 - page + i, value);
        } else if (chrRam != null) {
            chrRam.write(page + i, value);
        }
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 12; i++) {
            chrRegs[i] = 0;
        }
        for (int i = 0; i < 3; i++) {
            prgRegs[i] = 0;
        }
        ramAddress = 0;
        irqCounter = 0;
        irqEnabled = false;
        irqLine = false;
        audio.power();
    }

    @Override
    protected void updateBanks() {
        for (int i = 0; i < 3; i++) {
            prg8(i, prgRegs[i] & 0x3F);
        }
        prg8(3, -1);
        int pages = chrBanks;
        for (int i = 0; i < 12; i++) {
            int v = chrRegs[i];
            boolean ciramAllowed = i >= 8 || (prgRegs[1] & (i < 4 ? 0x40 : 0x80)) == 0;
            if (v >= 0xE0 && ciramAllowed) {
                ppuPage[i] = -1 - ((v & 1) << 10);
            } else {
                ppuPage[i] = Math.floorMod(v, pages) << 10;
            }
        }
        for (int i = 0; i < 8; i++) {
            chrPage[i] = Math.max(0, ppuPage[i]);
        }
        for (int i = 0; i < 4; i++) {
            ntPage[i] = ppuPage[8 + i] < 0 ? -1 - ppuPage[8 + i] : 0;
        }
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        audioRam.state(s);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        s.ints("prgRegs", prgRegs, 0, 0xFF);
        ramAddress = s.u8("ramAddress", ramAddress);
        irqCounter = s.u16("irqCounter", irqCounter);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqLine = s.bool("irqLine", irqLine);
        s.ints("ppuPage", ppuPage, -1 - 0x400, (chrBanks - 1) << 10);
        audio.state(s);
    }
}
