package lockstep.nes.core.cart.fds;

import java.util.Locale;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.RomFormatException;

/**
 * A disk image and a BIOS as the cartridge a console takes: mapper 20 ({@link FdsBoard}), the
 * BIOS as its PRG ROM, 32 KiB of PRG-RAM, 8 KiB of CHR-RAM, the disk and the side in the drive at
 * power-on.
 */
public final class DiskSystem {
    private DiskSystem() {
    }

    /** The disk system for the image {@code data} read from {@code name}, with {@code side} (0 = 1A) in the drive. */
    public static Cartridge cartridge(String name, byte[] data, byte[] bios, int side) throws RomFormatException {
        return cartridge(DiskImage.parse(name, data), bios, side);
    }

    public static Cartridge cartridge(DiskImage image, byte[] bios, int side) throws RomFormatException {
        if (bios.length != FdsBios.SIZE) {
            throw new RomFormatException(image.name() + ": the FDS BIOS has " + bios.length + " bytes, not " + FdsBios.SIZE);
        }
        if (side < 0 || side >= image.sideCount()) {
            throw new RomFormatException(image.name() + ": no side " + DiskImage.sideName(Math.max(0, side))
                    + " (the disk has " + sideRange(image.sideCount()) + ")");
        }
        for (int s = 0; s < image.sideCount(); s++) {
            if (!DiskLayout.layOut(image.blocks(s), new byte[DiskLayout.SIDE_BYTES], 0)) {
                throw new RomFormatException(image.name() + ": side " + DiskImage.sideName(s)
                        + " holds more blocks than fit on a disk side");
            }
        }
        return Cartridge.builder(image.name(), bios.clone(), new byte[0], FdsBoard.MAPPER)
                .mirroring(Mirroring.VERTICAL)
                .prgRam(FdsBoard.RAM_BYTES, 0)
                .chrRam(8192, 0)
                .disk(image, side)
                .build();
    }

    /**
     * The disk system for the disk image {@code data} read from {@code name}, with the user's
     * choices: {@code bios} (null: {@code disksys.rom} in the config folder) and {@code side} as
     * the user wrote it (null: 1A). Every refusal is one line.
     */
    public static Cartridge load(String name, byte[] data, java.nio.file.Path bios, String side)
            throws RomFormatException {
        final DiskImage d = DiskImage.parse(name, data);
        return cartridge(d, FdsBios.load(name, bios, FdsBios.defaultLocation()), sideIndex(name, d, side));
    }

    /**
     * As {@link #load(String, byte[], java.nio.file.Path, String)}, the BIOS given as its bytes (an
     * engine host sent them; null: {@code disksys.rom} in the config folder).
     */
    public static Cartridge loadWithBios(String name, byte[] data, byte[] bios, String side)
            throws RomFormatException {
        final DiskImage d = DiskImage.parse(name, data);
        final int index = sideIndex(name, d, side);
        return cartridge(d, bios != null ? bios : FdsBios.load(name, null, FdsBios.defaultLocation()), index);
    }

    /** The side the user named ({@code side}; null: 1A) as an index into {@code d}'s sides. */
    private static int sideIndex(String name, DiskImage d, String side) throws RomFormatException {
        int index = 0;
        if (side != null) {
            index = parseSide(side);
            if (index < 0) {
                throw new RomFormatException("--disk-side " + side + ": not a disk side (1A, 1B, 2A, ...)");
            }
            if (index >= d.sideCount()) {
                throw new RomFormatException(name + ": --disk-side " + side + ": the disk has " + d.sideCount()
                        + " side(s), 1A-" + DiskImage.sideName(d.sideCount() - 1));
            }
        }
        return index;
    }

    /**
     * A ROM or disk image from its bytes alone (an engine host, a canary side): a disk image runs
     * with the BIOS in the config folder and side 1A; anything else is {@link Cartridge#parse}d.
     */
    public static Cartridge parseAny(String name, byte[] data) throws RomFormatException {
        return DiskImage.looksLikeDisk(data) ? load(name, data, null, null) : Cartridge.parse(name, data);
    }

    /** "side 1A" or "sides 1A-2B". */
    static String sideRange(int count) {
        return count == 1 ? "side 1A" : "sides 1A-" + DiskImage.sideName(count - 1);
    }

    /**
     * A side as the user names it: "1A", "1B", "2A"... (as printed on disks), or "A"/"B" for disk 1;
     * -1 when {@code text} is none of these.
     */
    public static int parseSide(String text) {
        final String t = text.trim().toUpperCase(Locale.ROOT);
        if (t.equals("A") || t.equals("B")) {
            return t.equals("A") ? 0 : 1;
        }
        if (t.length() < 2) {
            return -1;
        }
        final char letter = t.charAt(t.length() - 1);
        if (letter != 'A' && letter != 'B') {
            return -1;
        }
        final int disk;
        try {
            disk = Integer.parseInt(t.substring(0, t.length() - 1));
        } catch (NumberFormatException e) {
            return -1;
        }
        if (disk < 1 || disk > 128) {
            return -1;
        }
        return (disk - 1) * 2 + (letter == 'B' ? 1 : 0);
    }
}
