package lockstep.nes.core.cart;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;

import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.cart.fds.FdsBios;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.Cheats;
import lockstep.nes.ppu.Region;

/**
 * A parsed cartridge image (iNES or NES 2.0): the ROM contents and the header fields. Immutable;
 * the mutable parts (RAMs, bank registers) live in the {@link Mapper} created from it.
 *
 * <p>Header layout (NESdev "NES 2.0"): bytes 0-3 "NES\x1A"; 4/5 PRG/CHR size LSB; 6 flags
 * (mirroring, battery, trainer, four-screen, mapper D0-D3); 7 console type, NES 2.0 id (bits 2-3
 * = 2), mapper D4-D7; 8 mapper D8-D11 and submapper; 9 PRG/CHR size MSB nibbles; 10 PRG-RAM and
 * PRG-NVRAM shifts; 11 CHR-RAM and CHR-NVRAM shifts; 12 timing; 13 Vs./extended console type;
 * 14 miscellaneous ROM count; 15 default expansion device.
 */
public final class Cartridge {
    /** CPU/PPU timing (NES 2.0 byte 12; iNES byte 9 bit 0, or byte 10 bits 0-1 when clean). */
    public enum Timing { NTSC, PAL, MULTI, DENDY }

    /** Console type (byte 7 bits 0-1; 3 = extended, see byte 13). */
    public enum ConsoleType { NES, VS_SYSTEM, PLAYCHOICE_10, EXTENDED }

    private static final int HEADER = 16;
    private static final int TRAINER = 512;

    private final String name;
    private final byte[] prg;
    private final byte[] chr;
    private final byte[] trainer;
    private final boolean nes2;
    private final int mapperNumber;
    private final int submapper;
    private final Mirroring mirroring;
    /**
     * Bit 0 of header byte 6 as written, even beside the four-screen bit (which hides it from
     * {@link #mirroring}): UNROM 512 reads bits 3 and 0 together (1-screen or 4-screen).
     */
    private final boolean headerBit0;
    private final boolean battery;
    private final int prgRamSize;
    private final int prgNvramSize;
    private final int chrRamSize;
    private final int chrNvramSize;
    private final ConsoleType consoleType;
    private final Timing timing;
    private final int vsType;
    private final int miscRoms;
    private final int expansionDevice;
    /** A Famicom Disk System's disk (the PRG ROM is then its BIOS), or null. */
    private final DiskImage disk;
    /** The disk side in the drive at power-on (0 = side 1A), for a disk system. */
    private final int diskSide;
    /** The cheat codes a console of this cartridge powers on with (a Game Genie plugged in between). */
    private final List<Cheat> cheats;

    private Cartridge(Builder b) {
        this.name = b.name;
        this.prg = b.prg;
        this.chr = b.chr;
        this.trainer = b.trainer;
        this.nes2 = b.nes2;
        this.mapperNumber = b.mapper;
        this.submapper = b.submapper;
        this.mirroring = b.mirroring;
        this.headerBit0 = b.headerBit0;
        this.battery = b.battery;
        this.prgRamSize = b.prgRamSize;
        this.prgNvramSize = b.prgNvramSize;
        this.chrRamSize = b.chrRamSize;
        this.chrNvramSize = b.chrNvramSize;
        this.consoleType = b.consoleType;
        this.timing = b.timing;
        this.vsType = b.vsType;
        this.miscRoms = b.miscRoms;
        this.expansionDevice = b.expansionDevice;
        this.disk = b.disk;
        this.diskSide = b.diskSide;
        this.cheats = b.cheats;
    }

    /** A cartridge built in code (tests, the demo ROM): iNES defaults for everything else. */
    public Cartridge(String name, byte[] prg, byte[] chr, int mapperNumber, Mirroring mirroring,
                     boolean battery, int prgRamSize, int chrRamSize) {
        this(builder(name, prg, chr, mapperNumber).mirroring(mirroring).battery(battery)
                .prgRam(battery ? 0 : prgRamSize, battery ? prgRamSize : 0).chrRam(chrRamSize, 0));
    }

    /** A builder for cartridges made in code. */
    public static Builder builder(String name, byte[] prg, byte[] chr, int mapperNumber) {
        Builder b = new Builder();
        b.name = name;
        b.prg = prg;
        b.chr = chr;
        b.mapper = mapperNumber;
        b.chrRamSize = chr.length == 0 ? 8192 : 0;
        b.prgRamSize = 8192;
        return b;
    }

    /** Reads and parses a ROM file (plain, .gz, or a .zip holding one .nes); every failure is one line naming the file. */
    public static Cartridge load(Path path) throws RomFormatException {
        return load(path, null);
    }

    /**
     * Reads and parses a ROM file; {@code entry} (or null) names the .nes file inside a .zip
     * archive holding several ({@link RomFile#read}).
     */
    public static Cartridge load(Path path, String entry) throws RomFormatException {
        RomFile.Image image = RomFile.read(path, entry);
        if (DiskImage.looksLikeDisk(image.bytes())) {
            // A disk image: the disk system with the user's BIOS from the config folder.
            return DiskSystem.cartridge(image.name(), image.bytes(),
                    FdsBios.load(image.name(), null, FdsBios.defaultLocation()), 0);
        }
        return parse(image.name(), image.bytes());
    }

    /** Parses an iNES / NES 2.0 image; {@code name} names it in error messages. */
    public static Cartridge parse(String name, byte[] data) throws RomFormatException {
        if (data.length == 0) {
            throw new RomFormatException(name + ": empty file");
        }
        if (DiskImage.looksLikeDisk(data)) {
            throw new RomFormatException(name + ": a Famicom Disk System image, which runs with the disk system's BIOS"
                    + " (see DiskSystem)");
        }
        if (data.length < HEADER) {
            throw new RomFormatException(name + ": truncated header (" + data.length + " bytes, need 16)");
        }
        if (data[0] != 'N' || data[1] != 'E' || data[2] != 'S' || data[3] != 0x1A) {
            throw new RomFormatException(name + ": bad magic (not an iNES file: expected \"NES\\x1A\")");
        }
        int flags6 = data[6] & 0xFF;
        int flags7 = data[7] & 0xFF;
        boolean nes2 = (flags7 & 0x0C) == 0x08;
        Builder b = new Builder();
        b.name = name;
        b.nes2 = nes2;
        b.battery = (flags6 & 2) != 0;
        boolean hasTrainer = (flags6 & 4) != 0;
        boolean fourScreen = (flags6 & 8) != 0;
        b.mirroring = fourScreen ? Mirroring.FOUR_SCREEN
                : (flags6 & 1) != 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL;
        b.headerBit0 = (flags6 & 1) != 0;
        b.consoleType = ConsoleType.values()[flags7 & 3];
        long prgSize;
        long chrSize;
        if (nes2) {
            b.mapper = (flags6 >> 4) | (flags7 & 0xF0) | ((data[8] & 0x0F) << 8);
            b.submapper = (data[8] & 0xFF) >> 4;
            prgSize = nes2RomSize(name, "PRG", data[4] & 0xFF, data[9] & 0x0F, 16384);
            chrSize = nes2RomSize(name, "CHR", data[5] & 0xFF, (data[9] & 0xFF) >> 4, 8192);
            b.prgRamSize = shiftSize(name, "PRG-RAM", data[10] & 0x0F);
            b.prgNvramSize = shiftSize(name, "PRG-NVRAM", (data[10] & 0xFF) >> 4);
            b.chrRamSize = shiftSize(name, "CHR-RAM", data[11] & 0x0F);
            b.chrNvramSize = shiftSize(name, "CHR-NVRAM", (data[11] & 0xFF) >> 4);
            b.timing = Timing.values()[data[12] & 3];
            b.vsType = data[13] & 0xFF;
            b.miscRoms = data[14] & 3;
            b.expansionDevice = data[15] & 0x3F;
            if (b.prgNvramSize > 0 && !b.battery) {
                // NVRAM without the battery bit: the header contradicts itself; trust the sizes.
                b.battery = true;
            }
        } else {
            // Archaic headers carry junk ("DiskDude!") in bytes 7-15; the upper mapper nibble is
            // only trusted when bytes 12-15 are zero.
            boolean clean = data[12] == 0 && data[13] == 0 && data[14] == 0 && data[15] == 0;
            b.mapper = (flags6 >> 4) | (clean ? (flags7 & 0xF0) : 0);
            if (!clean) {
                b.consoleType = ConsoleType.NES;
            }
            prgSize = (data[4] & 0xFFL) * 16384;
            chrSize = (data[5] & 0xFFL) * 8192;
            int ram = clean && data[8] != 0 ? (data[8] & 0xFF) * 8192 : 8192;
            if (b.battery) {
                b.prgNvramSize = ram;
            } else {
                b.prgRamSize = ram;
            }
            b.chrRamSize = chrSize == 0 ? 8192 : 0;
            // Byte 9 bit 0 says PAL; the unofficial byte 10 bits 0-1 say 2 for PAL (1 and 3: both).
            b.timing = clean && ((data[9] & 1) != 0 || (data[10] & 3) == 2) ? Timing.PAL : Timing.NTSC;
        }
        if (prgSize == 0) {
            throw new RomFormatException(name + ": PRG ROM size is 0 in the header");
        }
        long offset = HEADER + (hasTrainer ? TRAINER : 0);
        long need = offset + prgSize + chrSize;
        if (hasTrainer && data.length < offset) {
            throw new RomFormatException(name + ": truncated trainer (" + data.length + " bytes, header says "
                    + offset + " before PRG)");
        }
        if (data.length < offset + prgSize) {
            throw new RomFormatException(name + ": truncated PRG ROM (header says " + sizeText(prgSize)
                    + ", file has " + sizeText(Math.max(0, data.length - offset)) + " after the header)");
        }
        if (data.length < need) {
            throw new RomFormatException(name + ": truncated CHR ROM (header says " + sizeText(chrSize)
                    + ", file has " + sizeText(data.length - offset - prgSize) + " after PRG)");
        }
        if (nes2 && b.prgRamSize + (long) b.prgNvramSize > 1 << 20) {
            throw new RomFormatException(name + ": NES 2.0 PRG-RAM size "
                    + sizeText(b.prgRamSize + (long) b.prgNvramSize) + " is impossible");
        }
        int off = (int) offset;
        b.trainer = hasTrainer ? Arrays.copyOfRange(data, HEADER, HEADER + TRAINER) : null;
        b.prg = Arrays.copyOfRange(data, off, off + (int) prgSize);
        b.chr = Arrays.copyOfRange(data, off + (int) prgSize, off + (int) prgSize + (int) chrSize);
        if (nes2 && chrSize == 0 && b.chrRamSize + b.chrNvramSize == 0) {
            // A NES 2.0 header with neither CHR ROM nor CHR-RAM: boards still have RAM there.
            b.chrRamSize = 8192;
        }
        return new Cartridge(b);
    }

    private static long nes2RomSize(String name, String what, int lsb, int msb, int unit)
            throws RomFormatException {
        if (msb != 0xF) {
            return ((long) msb << 8 | lsb) * unit;
        }
        // Exponent-multiplier form: EEEEEEMM -> 2^E * (MM*2+1).
        int exp = lsb >> 2;
        int mul = (lsb & 3) * 2 + 1;
        long size = (1L << exp) * mul;
        if (exp > 30 || size > Integer.MAX_VALUE - 64) {
            throw new RomFormatException(name + ": NES 2.0 " + what + " ROM size 2^" + exp + "*" + mul
                    + " bytes is impossible");
        }
        return size;
    }

    private static int shiftSize(String name, String what, int shift) throws RomFormatException {
        if (shift == 0) {
            return 0;
        }
        if (shift > 14) {
            throw new RomFormatException(name + ": NES 2.0 " + what + " size (shift " + shift + ", "
                    + sizeText(64L << shift) + ") is impossible");
        }
        return 64 << shift;
    }

    static String sizeText(long bytes) {
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes / 1024) + " KiB";
        }
        return bytes + " bytes";
    }

    /**
     * The same cartridge with an NES 2.0 submapper, for iNES files whose board variant the header
     * cannot say (e.g. 4 for an MMC3A whose IRQ follows the old revision, as mmc3_irq_tests 5
     * and mmc3_test_2 6 expect).
     */
    public Cartridge withSubmapper(int submapper) {
        if (submapper < 0 || submapper > 15) {
            throw new IllegalArgumentException("submapper " + submapper + " is not 0-15");
        }
        Builder b = copy();
        b.nes2 = true;
        b.submapper = submapper;
        return new Cartridge(b);
    }

    /**
     * The same cartridge run as a {@code region} console whatever its header says (the user's
     * {@code --region}; a movie recorded on a PAL console).
     */
    public Cartridge withRegion(Region region) {
        if (region == region()) {
            return this;
        }
        Builder b = copy();
        b.timing = switch (region) {
            case NTSC -> Timing.NTSC;
            case PAL -> Timing.PAL;
            case DENDY -> Timing.DENDY;
        };
        return new Cartridge(b);
    }

    /**
     * The same cartridge with {@code cheats} in effect from power-on (at most
     * {@link Cheats#MAX}): every console built from it, both engines of a
     * lockstep pair included, substitutes them.
     */
    public Cartridge withCheats(List<Cheat> cheats) {
        if (cheats.size() > Cheats.MAX) {
            throw new IllegalArgumentException("at most " + Cheats.MAX + " cheats, not "
                    + cheats.size());
        }
        if (cheats.isEmpty() && this.cheats.isEmpty()) {
            return this;
        }
        Builder b = copy();
        b.cheats = List.copyOf(cheats);
        return new Cartridge(b);
    }

    /** The cheat codes a console of this cartridge powers on with (empty: none). */
    public List<Cheat> cheats() {
        return cheats;
    }

    /** The console this cartridge runs on: its header's timing (a multi-region ROM runs as NTSC). */
    public Region region() {
        return switch (timing) {
            case PAL -> Region.PAL;
            case DENDY -> Region.DENDY;
            default -> Region.NTSC;
        };
    }

    /** A builder holding every field of this cartridge. */
    private Builder copy() {
        Builder b = new Builder();
        b.name = name;
        b.prg = prg;
        b.chr = chr;
        b.trainer = trainer;
        b.nes2 = nes2;
        b.mapper = mapperNumber;
        b.submapper = submapper;
        b.mirroring = mirroring;
        b.headerBit0 = headerBit0;
        b.battery = battery;
        b.prgRamSize = prgRamSize;
        b.prgNvramSize = prgNvramSize;
        b.chrRamSize = chrRamSize;
        b.chrNvramSize = chrNvramSize;
        b.consoleType = consoleType;
        b.timing = timing;
        b.vsType = vsType;
        b.miscRoms = miscRoms;
        b.expansionDevice = expansionDevice;
        b.disk = disk;
        b.diskSide = diskSide;
        b.cheats = cheats;
        return b;
    }

    /**
     * The same disk system with {@code side} (0 = side 1A) in the drive at power-on; a cartridge
     * without a disk is returned as it is.
     */
    public Cartridge withDiskSide(int side) {
        if (disk == null || side == diskSide) {
            return this;
        }
        if (side < 0 || side >= disk.sideCount()) {
            throw new IllegalArgumentException("side " + side + " of " + disk.sideCount());
        }
        Builder b = copy();
        b.diskSide = side;
        return new Cartridge(b);
    }

    /** Creates the board for this cartridge; unsupported mappers are refused with their name. */
    public Mapper createMapper() throws RomFormatException {
        return Mappers.create(this);
    }

    // ---- hashes ------------------------------------------------------------------------------

    /** CRC32 of {@code data} as 8 upper-case hex digits. */
    public static String crc32(byte[] data) {
        CRC32 c = new CRC32();
        c.update(data);
        return String.format("%08X", c.getValue());
    }

    /** A message digest ("SHA-1", "SHA-256") of {@code data} as lower-case hex. */
    public static String digest(String algorithm, byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " missing from the JDK", e);
        }
    }

    /** SHA-256 of PRG followed by CHR and a disk system's disk image (the ROM identity used by snapshots). */
    public String romSha256() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(prg);
            md.update(chr);
            if (disk != null) {
                md.update(disk.bytes());
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    /** CRC32 of PRG followed by CHR (the usual database key), and a disk system's disk image. */
    public String romCrc32() {
        CRC32 c = new CRC32();
        c.update(prg);
        c.update(chr);
        if (disk != null) {
            c.update(disk.bytes());
        }
        return String.format("%08X", c.getValue());
    }

    // ---- accessors ---------------------------------------------------------------------------

    public String name() { return name; }
    public byte[] prg() { return prg; }
    public byte[] chr() { return chr; }
    /** The 512-byte trainer (loaded at $7000), or null. */
    public byte[] trainer() { return trainer; }
    public boolean isNes2() { return nes2; }
    public int mapperNumber() { return mapperNumber; }
    public int submapper() { return submapper; }
    /** Header mirroring (FOUR_SCREEN when the four-screen bit is set). */
    public Mirroring mirroring() { return mirroring; }
    public boolean fourScreen() { return mirroring == Mirroring.FOUR_SCREEN; }
    /** Bit 0 of header byte 6 as written (see the field). */
    public boolean headerBit0() { return headerBit0; }
    public boolean battery() { return battery; }
    /** Volatile PRG-RAM bytes. */
    public int prgRamSize() { return prgRamSize; }
    /** Battery-backed PRG-RAM bytes. */
    public int prgNvramSize() { return prgNvramSize; }
    /** All PRG-RAM bytes (volatile + battery-backed). */
    public int totalPrgRamSize() { return prgRamSize + prgNvramSize; }
    public int chrRamSize() { return chrRamSize; }
    public int chrNvramSize() { return chrNvramSize; }
    public ConsoleType consoleType() { return consoleType; }
    public Timing timing() { return timing; }
    public int vsType() { return vsType; }
    public int miscRoms() { return miscRoms; }
    public int expansionDevice() { return expansionDevice; }
    /** A Famicom Disk System's disk (PRG ROM is its BIOS), or null for a cartridge. */
    public DiskImage disk() { return disk; }
    /** The disk side in the drive at power-on (0 = side 1A). */
    public int diskSide() { return diskSide; }

    /** Builds cartridges in code (tests, generated ROMs). */
    public static final class Builder {
        private String name = "<memory>";
        private byte[] prg = new byte[0];
        private byte[] chr = new byte[0];
        private byte[] trainer;
        private boolean nes2;
        private int mapper;
        private int submapper;
        private Mirroring mirroring = Mirroring.HORIZONTAL;
        private boolean headerBit0;
        private boolean battery;
        private int prgRamSize;
        private int prgNvramSize;
        private int chrRamSize;
        private int chrNvramSize;
        private ConsoleType consoleType = ConsoleType.NES;
        private Timing timing = Timing.NTSC;
        private int vsType;
        private int miscRoms;
        private int expansionDevice;
        private DiskImage disk;
        private int diskSide;
        private List<Cheat> cheats = List.of();

        private Builder() {
        }

        public Builder submapper(int v) { submapper = v; nes2 = true; return this; }
        public Builder mirroring(Mirroring v) { mirroring = v; headerBit0 = v == Mirroring.VERTICAL; return this; }
        /** Header byte 6 bit 0 beside the four-screen bit (set after {@link #mirroring}). */
        public Builder headerBit0(boolean v) { headerBit0 = v; return this; }
        public Builder battery(boolean v) { battery = v; return this; }
        public Builder trainer(byte[] v) { trainer = v; return this; }
        public Builder timing(Timing v) { timing = v; return this; }
        /** Volatile and battery-backed PRG-RAM sizes in bytes. */
        public Builder prgRam(int ram, int nvram) { prgRamSize = ram; prgNvramSize = nvram; return this; }
        public Builder chrRam(int ram, int nvram) { chrRamSize = ram; chrNvramSize = nvram; return this; }
        /** A Famicom Disk System's disk, {@code side} in the drive at power-on. */
        public Builder disk(DiskImage v, int side) { disk = v; diskSide = side; return this; }

        public Cartridge build() {
            return new Cartridge(this);
        }
    }
}
