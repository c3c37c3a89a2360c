package lockstep.nes.core.nsf;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.apu.ExpansionMix;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.fds.FdsAudio;
import lockstep.nes.core.cart.konami.Vrc6Audio;
import lockstep.nes.core.cart.konami.Vrc7Audio;
import lockstep.nes.core.cart.namco.Namco163Audio;
import lockstep.nes.core.cart.nintendo.Mmc5Audio;
import lockstep.nes.core.cart.sunsoft.Sunsoft5bAudio;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * The hardware an NSF runs on, as a board: the program in 4 KiB banks at $8000-$FFFF (switched by
 * writes to $5FF8-$5FFF when the file is bank-switched), 8 KiB of RAM at $6000, the player
 * program and its registers at $4100-$41FF ({@link NsfDriver}), the vectors at $FFFA pointing at
 * it, a play timer at the file's rate, and the expansion sound chips the file asks for, at their
 * boards' addresses: VRC6 $9000-$B002, VRC7 $9010/$9030, MMC5 $5000-$5015 (with its multiplier at
 * $5205/$5206 and ExRAM at $5C00-$5FF5), Namco 163 $4800 data and $F800 address, Sunsoft 5B
 * $C000 select and $E000 data, FDS $4040-$408A (reads $4040-$407F and $4090-$4092).
 *
 * <p>A tune for the disk system (NESdev "NSF", FDS) runs from 32 KiB of RAM at $6000-$DFFF, which
 * holds its program when init is called and which it may write; only $E000-$FFFF stays ROM. A
 * bank-switched one copies a 4 KiB bank into the RAM at $6000, $7000, $8000 ... $D000 by a write
 * to $5FF6, $5FF7, $5FF8 ... $5FFD, and switches $E000/$F000 by $5FFE/$5FFF; the RAM at $6000 and
 * $7000 starts with the banks the header gives for $E000 and $F000.
 */
public final class NsfBoard extends Mapper {
    // The play timer counts time exactly in integer units: per CPU cycle it adds the cycle's
    // length and fires when the sum reaches the period. NTSC: a cycle is 12 master clocks of
    // 11/236.25 us = 528/945 us, so it adds 528 and the period is us x 945. PAL: 16 master clocks
    // of 2/53.203425 us = 1,280,000/2,128,137 us.
    private static final long NTSC_CYCLE = 528;
    private static final long NTSC_PER_US = 945;
    private static final long PAL_CYCLE = 1_280_000;
    private static final long PAL_PER_US = 2_128_137;
    /** A disk system tune's RAM: $6000-$DFFF. */
    private static final int FDS_RAM = 0x8000;
    /** Where a disk system tune's program starts when it is not bank-switched. */
    private static final int FDS_BASE = 0x6000;

    private final NsfFile file;
    /** The program in 4 KiB banks (bank-switched: from the load address's offset in its bank). */
    private final byte[] image;
    private final int bankCount;
    private final long cycleLength;
    private final long period;
    private final int song;
    private final boolean pal;

    private final Vrc6Audio vrc6;
    private final Vrc7Audio vrc7;
    private final Mmc5Audio mmc5;
    private final Namco163Audio n163;
    private final Sunsoft5bAudio sunsoft;
    private final FdsAudio fds;
    /** A disk system tune's RAM at $6000-$DFFF (empty for other tunes). */
    private final Memory fdsRam;
    private final ExpansionAudio audio;
    private final Memory n163Ram = new Memory("n163Ram", Memory.MAPPER, 128);
    private final Memory exram = new Memory("exram", Memory.MAPPER, 1024);

    /** The 4 KiB bank at each of $8000, $9000, ... $F000. */
    private final int[] banks = new int[8];
    private boolean timerRunning;
    /** Time since the last play, in the timer's units (see above). */
    private long timer;
    private boolean timerElapsed;
    private int n163Address;
    private int multiplicand;
    private int multiplier;

    /** The board for {@code file}, set to init song {@code song} (0-based) on {@code region}'s console (NTSC or PAL). */
    public NsfBoard(Cartridge cart, NsfFile file, int song) {
        super(cart, 8192, 8192);
        this.file = file;
        this.song = song;
        this.pal = cart.region() != Region.NTSC;
        this.image = image(file);
        this.bankCount = image.length >> 12;
        final int us = pal ? (file.palPeriod() != 0 ? file.palPeriod() : NsfFile.PAL_DEFAULT_PERIOD)
                : (file.ntscPeriod() != 0 ? file.ntscPeriod() : NsfFile.NTSC_DEFAULT_PERIOD);
        this.cycleLength = pal ? PAL_CYCLE : NTSC_CYCLE;
        this.period = us * (pal ? PAL_PER_US : NTSC_PER_US);
        final int chips = file.chips();
        vrc6 = (chips & NsfFile.VRC6) != 0 ? new Vrc6Audio() : null;
        vrc7 = (chips & NsfFile.VRC7) != 0 ? new Vrc7Audio() : null;
        mmc5 = (chips & NsfFile.MMC5) != 0 ? new Mmc5Audio() : null;
        n163 = (chips & NsfFile.N163) != 0 ? new Namco163Audio(n163Ram, 0) : null;
        sunsoft = (chips & NsfFile.SUNSOFT_5B) != 0 ? new Sunsoft5bAudio() : null;
        fds = (chips & NsfFile.FDS) != 0 ? new FdsAudio() : null;
        fdsRam = new Memory("fdsRam", Memory.MAPPER, fds != null ? FDS_RAM : 0);
        final List<ExpansionAudio> parts = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        add(parts, names, vrc6, "vrc6");
        add(parts, names, vrc7, "vrc7");
        add(parts, names, mmc5, "mmc5");
        add(parts, names, n163, "n163");
        add(parts, names, sunsoft, "sunsoft5b");
        add(parts, names, fds, "fds");
        audio = parts.isEmpty() ? null
                : new ExpansionMix(parts.toArray(new ExpansionAudio[0]), names.toArray(new String[0]));
    }

    private static void add(List<ExpansionAudio> parts, List<String> names, ExpansionAudio chip, String name) {
        if (chip != null) {
            parts.add(chip);
            names.add(name);
        }
    }

    /** The program laid out in 4 KiB banks: at its load address, or from the load address's offset in a bank. */
    static byte[] image(NsfFile f) {
        final byte[] p = f.program();
        if (!f.bankSwitched()) {
            final int base = (f.chips() & NsfFile.FDS) != 0 ? FDS_BASE : 0x8000;
            final byte[] out = new byte[0x10000 - base];
            System.arraycopy(p, 0, out, f.load() - base, p.length);
            return out;
        }
        final int offset = f.load() & 0xFFF;
        final int size = (offset + p.length + 0xFFF) & ~0xFFF;
        final byte[] out = new byte[size];
        System.arraycopy(p, 0, out, offset, p.length);
        return out;
    }

    /** The program's banks as the cartridge's PRG (what a snapshot's ROM id is of). */
    public static byte[] prg(NsfFile f) {
        return image(f);
    }

    public NsfFile file() {
        return file;
    }

    @Override
    protected int declaredHooks() {
        // Read by Mapper's constructor, before this one's fields are set: AUDIO is declared
        // always, and expansionAudio() is null for a file without chips (the APU mixes none).
        return BoardHooks.CPU_CYCLE | BoardHooks.CPU_READ | BoardHooks.AUDIO;
    }

    @Override
    public ExpansionAudio expansionAudio() {
        return audio;
    }

    @Override
    public void cpuCycle() {
        if (timerRunning) {
            timer += cycleLength;
            if (timer >= period) {
                timer -= period;
                timerElapsed = true;
            }
        }
    }

    @Override
    public int cpuRead(int addr) {
        if (addr == NsfDriver.TIMER) {
            final int v = timerElapsed ? 0x80 : 0;
            timerElapsed = false;
            return v;
        }
        if (n163 != null && addr >= 0x4800 && addr < 0x5000) {
            final int v = n163.read(n163Address & 0x7F);
            if ((n163Address & 0x80) != 0) {
                n163Address = 0x80 | ((n163Address + 1) & 0x7F);
            }
            return v;
        }
        return cpuPeek(addr);
    }

    @Override
    public int cpuPeek(int addr) {
        if (fds != null && addr >= 0x6000 && addr < 0xE000) {
            return fdsRam.read(addr - 0x6000);
        }
        if (addr >= 0x8000) {
            if (addr >= 0xFFFA) {
                final int vector = addr >= 0xFFFC && addr < 0xFFFE ? NsfDriver.RESET : NsfDriver.RTI;
                return (addr & 1) == 0 ? vector & 0xFF : vector >> 8;
            }
            return rom(addr);
        }
        if (addr >= 0x6000) {
            return super.cpuRead(addr);
        }
        if (addr >= 0x4100 && addr < 0x4200) {
            return driver(addr);
        }
        if (n163 != null && addr >= 0x4800 && addr < 0x5000) {
            return n163Ram.read(n163Address & 0x7F);
        }
        if (fds != null && (addr >= 0x4040 && addr < 0x4080 || addr >= 0x4090 && addr <= 0x4092)) {
            return fds.peek(addr);
        }
        if (mmc5 != null) {
            if (addr == 0x5205) {
                return (multiplicand * multiplier) & 0xFF;
            }
            if (addr == 0x5206) {
                return (multiplicand * multiplier) >> 8;
            }
            if (addr >= 0x5C00 && addr < 0x6000) {
                return exram.read(addr & 0x3FF);
            }
        }
        return OPEN_BUS;
    }

    /** The program's byte at {@code addr} ($8000-$FFFF, or $6000-$FFFF for a disk system tune). */
    private int rom(int addr) {
        if (!file.bankSwitched()) {
            return image[addr - (0x10000 - image.length)] & 0xFF;
        }
        return image[(banks[(addr >> 12) & 7] << 12) | (addr & 0xFFF)] & 0xFF;
    }

    /** Copies bank {@code bank} of the program into the disk system RAM at 4 KiB slot {@code slot} ($6000 + slot x $1000). */
    private void loadFdsBank(int slot, int bank) {
        final int from = (bank % bankCount) << 12;
        for (int i = 0; i < 0x1000; i++) {
            fdsRam.write((slot << 12) + i, image[from + i]);
        }
    }

    private int driver(int addr) {
        return switch (addr) {
            case NsfDriver.SONG -> song;
            case NsfDriver.REGION -> pal ? 1 : 0;
            case NsfDriver.TIMER -> timerElapsed ? 0x80 : 0;
            case NsfDriver.INIT, NsfDriver.PLAY -> 0x4C; // JMP
            case NsfDriver.INIT + 1 -> file.init() & 0xFF;
            case NsfDriver.INIT + 2 -> file.init() >> 8;
            case NsfDriver.PLAY + 1 -> file.play() & 0xFF;
            case NsfDriver.PLAY + 2 -> file.play() >> 8;
            default -> addr < 0x41F0 ? NsfDriver.CODE[addr - 0x4100] & 0xFF : OPEN_BUS;
        };
    }

    @Override
    public void cpuWrite(int addr, int value) {
        value &= 0xFF;
        if (fds != null) {
            if (addr >= 0x6000 && addr < 0xE000) {
                fdsRam.write(addr - 0x6000, value);
                return;
            }
            if (addr >= 0x4040 && addr <= 0x408A) {
                fds.write(addr, value);
                return;
            }
            if (addr >= 0x5FF6 && addr < 0x6000 && file.bankSwitched()) {
                if (addr < 0x5FFE) {
                    loadFdsBank(addr - 0x5FF6, value);
                } else {
                    banks[addr - 0x5FF8] = value % bankCount;
                }
                return;
            }
        }
        if (addr >= 0x6000 && addr < 0x8000) {
            writePrgRam(addr, value);
            return;
        }
        if (addr >= 0x5FF8 && addr < 0x6000) {
            if (file.bankSwitched()) {
                banks[addr - 0x5FF8] = value % bankCount;
            }
            return;
        }
        if (addr == NsfDriver.START) {
            timerRunning = (value & 1) != 0;
            timer = 0;
            timerElapsed = false;
            return;
        }
        if (mmc5 != null && addr >= 0x5000 && addr < 0x6000) {
            if (addr <= 0x5015) {
                mmc5.write(addr, value);
            } else if (addr == 0x5205) {
                multiplicand = value;
            } else if (addr == 0x5206) {
                multiplier = value;
            } else if (addr >= 0x5C00) {
                exram.write(addr & 0x3FF, value);
            }
            return;
        }
        if (n163 != null && addr >= 0x4800 && addr < 0x5000) {
            n163.write(n163Address & 0x7F, value);
            if ((n163Address & 0x80) != 0) {
                n163Address = 0x80 | ((n163Address + 1) & 0x7F);
            }
            return;
        }
        if (addr < 0x8000) {
            return;
        }
        if (vrc6 != null) {
            final int reg = addr & 0xF003;
            if (reg >= 0x9000 && reg <= 0xB002 && (reg & 3) != 3 || reg == 0x9003) {
                vrc6.write((reg >> 12) - 9, reg & 3, value);
            }
        }
        if (vrc7 != null) {
            if (addr == 0x9010) {
                vrc7.writeSelect(value);
            } else if (addr == 0x9030) {
                vrc7.writeData(value);
            }
        }
        if (n163 != null && addr >= 0xF800) {
            n163Address = value;
        }
        if (sunsoft != null) {
            if (addr >= 0xE000) {
                sunsoft.writeData(value);
            } else if (addr >= 0xC000) {
                sunsoft.writeSelect(value);
            }
        }
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 8; i++) {
            banks[i] = file.bankSwitched() ? file.banks()[i] % bankCount : i;
        }
        timerRunning = false;
        timer = 0;
        timerElapsed = false;
        n163Address = 0;
        multiplicand = 0;
        multiplier = 0;
        n163Ram.fill(0);
        exram.fill(0);
        if (fds != null) {
            if (file.bankSwitched()) {
                loadFdsBank(0, banks[6]);
                loadFdsBank(1, banks[7]);
                for (int slot = 2; slot < 8; slot++) {
                    loadFdsBank(slot, banks[slot - 2]);
                }
            } else {
                for (int i = 0; i < FDS_RAM; i++) {
                    fdsRam.write(i, image[i]);
                }
            }
        }
        if (audio != null) {
            audio.power();
        }
    }

    @Override
    protected void updateBanks() {
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("banks", banks, 0, bankCount - 1);
        timerRunning = s.bool("timerRunning", timerRunning);
        timer = s.i64("timer", timer, 0, period - 1);
        timerElapsed = s.bool("timerElapsed", timerElapsed);
        n163Address = s.u8("n163Address", n163Address);
        multiplicand = s.u8("multiplicand", multiplicand);
        multiplier = s.u8("multiplier", multiplier);
        s.memory(n163Ram);
        s.memory(exram);
        if (fds != null) {
            s.memory(fdsRam);
        }
        if (audio != null) {
            audio.state(s);
        }
    }

}
