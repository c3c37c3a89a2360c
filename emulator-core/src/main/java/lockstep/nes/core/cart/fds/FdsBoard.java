package lockstep.nes.core.cart.fds;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;
import lockstep.nes.state.StateVisitor;

/**
 * The Famicom Disk System (iNES mapper 20; NESdev "Family Computer Disk System"): the RAM
 * adapter's 32 KiB of PRG-RAM at $6000-$DFFF, the 8 KiB BIOS at $E000-$FFFF (the cartridge's PRG
 * ROM, supplied by the user), 8 KiB of CHR-RAM, mirroring by $4025 bit 3 (0 vertical, 1
 * horizontal), the timer IRQ ({@link FdsTimer}), the drive ({@link DiskDrive}) and the sound
 * ({@link FdsAudio}).
 * <pre>
 *  $4020-$4022  timer             $4023  .... ..SD  S sound registers, D disk registers (and the timer) enabled
 *  $4024        byte to write     $4025  drive control     $4026  external connector out
 *  $4030        status (read acknowledges both IRQs)       $4031  byte read
 *  $4032        drive status      $4033  external connector in (bit 7: the battery is good)
 *  $4040-$408A  sound (writes need $4023 bit 1)            $4040-$407F, $4090-$4092  sound reads
 * </pre>
 * The disk is the board's memory, so snapshots, the digest and lockstep see every byte the game
 * writes; the image it was loaded from is never written ({@link #pristineDisk}).
 */
public final class FdsBoard extends Mapper {
    /** The iNES mapper number of the disk system. */
    public static final int MAPPER = 20;
    /** PRG-RAM bytes ($6000-$DFFF). */
    public static final int RAM_BYTES = 0x8000;

    /** The disk's sides laid out as the head meets them, as loaded. */
    @NotState("the disk image as loaded; the disk as written is the described memory")
    private final byte[] pristine;
    private final Memory disk;
    private final DiskDrive drive;
    private final FdsTimer timer = new FdsTimer();
    private final FdsAudio audio = new FdsAudio();
    /** Offset of the BIOS's 8 KiB in the PRG ROM (its last 8 KiB). */
    private final int bios;
    private int ioEnable;
    private boolean horizontal;
    private int externalOut;

    public FdsBoard(Cartridge cart) {
        super(cart, RAM_BYTES, 8192);
        bios = prg.length - 0x2000;
        final DiskImage image = cart.disk();
        final int sides = image == null ? 0 : image.sideCount();
        pristine = new byte[sides * DiskLayout.SIDE_BYTES];
        for (int s = 0; s < sides; s++) {
            if (!DiskLayout.layOut(image.blocks(s), pristine, s * DiskLayout.SIDE_BYTES)) {
                throw new IllegalArgumentException(image.name() + ": side " + DiskImage.sideName(s)
                        + " holds more blocks than a side's stream has room for");
            }
        }
        disk = new Memory("disk", Memory.MAPPER + 1, pristine.length);
        disk.load(pristine, 0);
        drive = new DiskDrive(disk, sides, image == null ? DiskDrive.EJECTED : cart.diskSide());
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.CPU_READ | BoardHooks.AUDIO;
    }

    @Override
    public ExpansionAudio expansionAudio() {
        return audio;
    }

    /** The sound unit (for tests and players that read it directly). */
    public FdsAudio audio() {
        return audio;
    }

    @Override
    public void cpuCycle() {
        timer.clock();
        drive.clock();
    }

    @Override
    public boolean irq() {
        return timer.irq() || drive.irq();
    }

    @Override
    public int cpuRead(int addr) {
        if (addr >= 0xE000) {
            return prg[bios + (addr & 0x1FFF)] & 0xFF;
        }
        if (addr >= 0x6000) {
            return prgRam.read(addr - 0x6000);
        }
        switch (addr) {
            case 0x4030 -> {
                final int v = (timer.irq() ? 1 : 0) | drive.status(true);
                timer.acknowledge();
                return v;
            }
            case 0x4031 -> {
                return drive.readData();
            }
            case 0x4032 -> {
                return 0x40 | drive.driveStatus();
            }
            case 0x4033 -> {
                return 0x80 | (externalOut & 0x7F);
            }
            default -> {
                if ((addr >= 0x4040 && addr < 0x4080) || (addr >= 0x4090 && addr <= 0x4092)) {
                    return audio.read(addr);
                }
                return OPEN_BUS;
            }
        }
    }

    @Override
    public int cpuPeek(int addr) {
        return switch (addr) {
            case 0x4030 -> (timer.irq() ? 1 : 0) | drive.status(false);
            case 0x4031 -> drive.peekData();
            default -> cpuRead(addr);
        };
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0xE000) {
            return;
        }
        if (addr >= 0x6000) {
            prgRam.write(addr - 0x6000, value);
            return;
        }
        final boolean disk = (ioEnable & 1) != 0;
        switch (addr) {
            case 0x4020 -> timer.writeReloadLow(value);
            case 0x4021 -> timer.writeReloadHigh(value);
            case 0x4022 -> timer.writeControl(value, disk);
            case 0x4023 -> {
                ioEnable = value & 3;
                if ((value & 1) == 0) {
                    timer.disable();
                    drive.disable();
                }
            }
            case 0x4024 -> {
                if (disk) {
                    drive.writeData(value);
                }
            }
            case 0x4025 -> {
                if (disk) {
                    drive.writeControl(value);
                    horizontal = (value & 8) != 0;
                    updateBanks();
                }
            }
            case 0x4026 -> {
                if (disk) {
                    externalOut = value & 0xFF;
                }
            }
            default -> {
                if (addr >= 0x4040 && addr <= 0x408A && (ioEnable & 2) != 0) {
                    audio.write(addr, value);
                }
            }
        }
    }

    @Override
    protected void powerOn() {
        ioEnable = 0;
        horizontal = false;
        externalOut = 0;
        timer.power();
        drive.power();
        audio.power();
    }

    @Override
    protected void updateBanks() {
        chr8(0);
        mirroring(horizontal ? Mirroring.HORIZONTAL : Mirroring.VERTICAL);
        for (int i = 0; i < 4; i++) {
            prg8(i, -1);
        }
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        ioEnable = s.u8("ioEnable", ioEnable, 3);
        horizontal = s.bool("horizontal", horizontal);
        externalOut = s.u8("externalOut", externalOut);
        timer.state(s);
        drive.state(s);
        audio.state(s);
    }

    // ---- the disk, for frontends, movies and saves ----------------------------------------

    /** Sides of the disk (0 when the board has none). */
    public int sides() {
        return drive.sides();
    }

    /** The side in the drive (0 = side 1A), or -1 when it is empty. */
    public int insertedSide() {
        return drive.insertedSide();
    }

    /** Puts {@code side} (0 = side 1A) in the drive, taking out the one in it. */
    public void insertSide(int side) {
        noteChange();
        drive.insert(side);
    }

    /** Takes the disk out of the drive. */
    public void eject() {
        noteChange();
        drive.insert(DiskDrive.EJECTED);
    }

    /**
     * An FCEUX movie frame's disk commands: bit 2 (4) inserts the selected side or ejects the
     * disk, bit 3 (8) selects the next side (while the drive is empty). Other bits are ignored.
     */
    public void movieCommands(int commands) {
        if ((commands & (COMMAND_SELECT_SIDE | COMMAND_INSERT)) == 0) {
            return;
        }
        noteChange();
        if ((commands & COMMAND_SELECT_SIDE) != 0) {
            drive.selectNextSide();
        }
        if ((commands & COMMAND_INSERT) != 0) {
            drive.toggleInsert();
        }
    }

    /** FCEUX's movie command bit for the disk's insert/eject. */
    public static final int COMMAND_INSERT = 4;
    /** FCEUX's movie command bit for the next side. */
    public static final int COMMAND_SELECT_SIDE = 8;

    /** The disk as written by the game: every side's stream, {@link DiskLayout#SIDE_BYTES} each. */
    public Memory diskMemory() {
        return disk;
    }

    /** The disk as loaded, laid out as {@link #diskMemory} (a copy). */
    public byte[] pristineDisk() {
        return pristine.clone();
    }
}
