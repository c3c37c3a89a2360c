package lockstep.nes.core.cart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A parsed cartridge image (iNES / NES 2.0): the ROM contents and header fields. Immutable;
 * the mutable parts (RAMs, bank registers) live in the {@link Mapper} created from it.
 *
 * <p>TODO(foundation, cartridge helper): full header validation, NES 2.0 sizes, trainers.
 */
public final class Cartridge {
    private final String name;
    private final byte[] prg;
    private final byte[] chr;
    private final int mapperNumber;
    private final Mirroring mirroring;
    private final boolean battery;
    private final int prgRamSize;
    private final int chrRamSize;

    public Cartridge(String name, byte[] prg, byte[] chr, int mapperNumber, Mirroring mirroring,
                     boolean battery, int prgRamSize, int chrRamSize) {
        this.name = name;
        this.prg = prg;
        this.chr = chr;
        this.mapperNumber = mapperNumber;
        this.mirroring = mirroring;
        this.battery = battery;
        this.prgRamSize = prgRamSize;
        this.chrRamSize = chrRamSize;
    }

    public static Cartridge load(Path path) throws RomFormatException {
        if (!Files.exists(path)) {
            throw new RomFormatException(path + ": not found");
        }
        if (!Files.isRegularFile(path)) {
            throw new RomFormatException(path + ": not a file");
        }
        byte[] data;
        try {
            data = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new RomFormatException(path + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(path.toString(), data);
    }

    public static Cartridge parse(String name, byte[] data) throws RomFormatException {
        if (data.length < 16) {
            throw new RomFormatException(name + ": truncated header (" + data.length + " bytes, need 16)");
        }
        if (data[0] != 'N' || data[1] != 'E' || data[2] != 'S' || data[3] != 0x1A) {
            throw new RomFormatException(name + ": bad magic (not an iNES file)");
        }
        int prgSize = (data[4] & 0xFF) * 16384;
        int chrSize = (data[5] & 0xFF) * 8192;
        int flags6 = data[6] & 0xFF;
        int flags7 = data[7] & 0xFF;
        int mapper = (flags6 >> 4) | (flags7 & 0xF0);
        boolean trainer = (flags6 & 4) != 0;
        int offset = 16 + (trainer ? 512 : 0);
        if (data.length < offset + prgSize + chrSize) {
            throw new RomFormatException(name + ": truncated (" + data.length + " bytes, header says "
                    + (offset + prgSize + chrSize) + ")");
        }
        byte[] prg = java.util.Arrays.copyOfRange(data, offset, offset + prgSize);
        byte[] chr = java.util.Arrays.copyOfRange(data, offset + prgSize, offset + prgSize + chrSize);
        Mirroring m = (flags6 & 8) != 0 ? Mirroring.FOUR_SCREEN
                : (flags6 & 1) != 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL;
        return new Cartridge(name, prg, chr, mapper, m, (flags6 & 2) != 0, 8192, chrSize == 0 ? 8192 : 0);
    }

    public Mapper createMapper() throws RomFormatException {
        return switch (mapperNumber) {
            case 0 -> new Nrom(this);
            default -> throw new RomFormatException(name + ": unsupported mapper " + mapperNumber);
        };
    }

    public String name() { return name; }
    public byte[] prg() { return prg; }
    public byte[] chr() { return chr; }
    public int mapperNumber() { return mapperNumber; }
    public Mirroring mirroring() { return mirroring; }
    public boolean battery() { return battery; }
    public int prgRamSize() { return prgRamSize; }
    public int chrRamSize() { return chrRamSize; }
}
