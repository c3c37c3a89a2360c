package lockstep.nes.app;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mappers;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.nsf.NsfFile;
import lockstep.nes.core.nsf.NsfFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lockstep info ROM}: the header fields, the board, the sizes and the hashes of a ROM. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Print a ROM's header fields, mapper, sizes, mirroring, battery and the CRC32/SHA-1 of PRG and CHR.",
        footerHeading = "%nExamples:%n", footer = {"  lockstep info game.nes", "  lockstep info game.fds", "  lockstep info builtin:demo"})
public final class InfoCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ROM", description = "iNES / NES 2.0 file, a .fds / .qd disk image, or builtin:demo")
    Path rom;

    @Mixin
    RomEntryOption archive;

    @Override
    public Integer call() {
        Cartridge c;
        try {
            if (!RomArg.isDemo(rom)) {
                RomFile.Image image = RomArg.image(rom, archive.entry);
                if (DiskImage.looksLikeDisk(image.bytes())) {
                    // A disk image is described without the BIOS it runs with.
                    printDisk(DiskImage.parse(image.name(), image.bytes()), System.out);
                    return 0;
                }
                if (NsfFile.looksLike(image.bytes())) {
                    NsfCommand.printInfo(NsfFile.parse(image.name(), image.bytes()), System.out);
                    return 0;
                }
            }
            c = RomArg.load(rom, archive.entry);
        } catch (RomFormatException | NsfFormatException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        print(c, System.out);
        return 0;
    }

    static void print(Cartridge c, PrintStream out) {
        String name = Mappers.name(c.mapperNumber());
        line(out, "file", c.name());
        line(out, "format", c.isNes2() ? "NES 2.0" : "iNES");
        line(out, "mapper", c.mapperNumber() + (name != null ? " (" + name + ")" : "")
                + (Mappers.isSupported(c.mapperNumber()) ? " - supported" : " - not supported"));
        line(out, "submapper", c.isNes2() ? Integer.toString(c.submapper()) : "- (iNES)");
        line(out, "PRG ROM", size(c.prg().length));
        line(out, "CHR ROM", c.chr().length == 0 ? "none" : size(c.chr().length));
        line(out, "PRG-RAM", size(c.prgRamSize()));
        line(out, "PRG-NVRAM", size(c.prgNvramSize()));
        line(out, "CHR-RAM", size(c.chrRamSize()));
        line(out, "CHR-NVRAM", size(c.chrNvramSize()));
        line(out, "mirroring", mirroring(c.mirroring()));
        line(out, "four-screen", yesNo(c.fourScreen()));
        line(out, "battery", yesNo(c.battery()));
        line(out, "trainer", c.trainer() != null ? "yes (512 bytes at $7000)" : "no");
        line(out, "console", c.consoleType().name().replace('_', '-'));
        line(out, "timing", c.timing().name());
        if (c.isNes2()) {
            line(out, "vs/extended", String.format("$%02X", c.vsType()));
            line(out, "misc ROMs", Integer.toString(c.miscRoms()));
            line(out, "expansion", String.format("$%02X", c.expansionDevice()));
        }
        line(out, "PRG CRC32", Cartridge.crc32(c.prg()));
        line(out, "PRG SHA-1", Cartridge.digest("SHA-1", c.prg()));
        if (c.chr().length > 0) {
            line(out, "CHR CRC32", Cartridge.crc32(c.chr()));
            line(out, "CHR SHA-1", Cartridge.digest("SHA-1", c.chr()));
        } else {
            line(out, "CHR CRC32", "- (no CHR ROM)");
            line(out, "CHR SHA-1", "- (no CHR ROM)");
        }
        line(out, "ROM CRC32", c.romCrc32());
        line(out, "ROM SHA-256", c.romSha256());
    }

    /** A Famicom Disk System image: its format, sides and the files on each side. */
    static void printDisk(DiskImage d, PrintStream out) {
        line(out, "file", d.name());
        line(out, "format", "Famicom Disk System image (mapper " + FdsBoard.MAPPER + ", needs the BIOS)");
        line(out, "sides", d.sideCount() + " (1A-" + DiskImage.sideName(d.sideCount() - 1) + ")");
        for (int s = 0; s < d.sideCount(); s++) {
            java.util.List<byte[]> blocks = d.blocks(s);
            StringBuilder files = new StringBuilder();
            for (int b = 2; b + 1 < blocks.size(); b += 2) {
                byte[] h = blocks.get(b);
                String name = new String(h, 3, 8, java.nio.charset.StandardCharsets.US_ASCII).replaceAll("[^\\x20-\\x7E]", ".").trim();
                files.append(files.length() > 0 ? ", " : "").append(name).append(" (")
                        .append(size((h[13] & 0xFF) | (h[14] & 0xFF) << 8)).append(")");
            }
            line(out, "side " + DiskImage.sideName(s), (blocks.size() - 2) / 2 + " file(s)"
                    + (files.length() > 0 ? ": " + files : ""));
        }
        String game = new String(d.blocks(0).get(0), 16, 3, java.nio.charset.StandardCharsets.US_ASCII);
        line(out, "game code", game.replaceAll("[^\\x20-\\x7E]", "."));
        line(out, "image CRC32", Cartridge.crc32(d.bytes()));
        line(out, "image SHA-1", Cartridge.digest("SHA-1", d.bytes()));
    }

    private static void line(PrintStream out, String key, String value) {
        out.printf("%-12s %s%n", key + ":", value);
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }

    private static String mirroring(Mirroring m) {
        return switch (m) {
            case HORIZONTAL -> "horizontal";
            case VERTICAL -> "vertical";
            case SINGLE_A -> "one-screen A";
            case SINGLE_B -> "one-screen B";
            case FOUR_SCREEN -> "four-screen";
        };
    }

    private static String size(long bytes) {
        if (bytes == 0) {
            return "0";
        }
        if (bytes % 1024 == 0) {
            return (bytes / 1024) + " KiB";
        }
        return bytes + " bytes";
    }
}
