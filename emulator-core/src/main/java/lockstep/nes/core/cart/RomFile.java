package lockstep.nes.core.cart;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import lockstep.nes.core.IoReason;

/**
 * The bytes of a ROM image from a file: a plain {@code .nes}, a {@code .gz} of one, or a
 * {@code .zip} holding one {@code .nes} (or several, one chosen by name). Archives are known by
 * their first bytes (or by the name, which then must match them). Every failure is one line
 * naming the file and the reason.
 */
public final class RomFile {
    /** The largest ROM image taken from an archive (far above any NES 2.0 cartridge in use). */
    public static final int MAX_IMAGE = 64 << 20;

    private static final byte[] ZIP_MAGIC = {'P', 'K', 3, 4};
    private static final byte[] EMPTY_ZIP_MAGIC = {'P', 'K', 5, 6};

    private RomFile() {
    }

    /** A ROM image and the name errors and snapshots call it by ("game.zip!game.nes" for an archive's). */
    public record Image(String name, byte[] bytes) {
    }

    /**
     * Reads {@code path}; {@code entry} (or null) names the {@code .nes} file inside a zip
     * archive, and is required when the archive holds more than one.
     */
    public static Image read(Path path, String entry) throws RomFormatException {
        if (!Files.exists(path)) {
            throw new RomFormatException(path + ": not found");
        }
        if (Files.isDirectory(path) || !Files.isRegularFile(path)) {
            throw new RomFormatException(path + ": not a file");
        }
        byte[] data;
        try {
            if (Files.size(path) > MAX_IMAGE) {
                throw new RomFormatException(path + ": too large for a ROM (" + Files.size(path) + " bytes, at most "
                        + MAX_IMAGE + ")");
            }
            data = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new RomFormatException(path + ": cannot read (" + IoReason.of(e) + ")");
        } catch (OutOfMemoryError e) {
            throw new RomFormatException(path + ": cannot read (" + e.getMessage() + ")");
        }
        return of(path.toString(), data, entry);
    }

    /** The image inside {@code data} read from the file {@code name} (see {@link #read}). */
    public static Image of(String name, byte[] data, String entry) throws RomFormatException {
        final String lower = name.toLowerCase(Locale.ROOT);
        final boolean zip = startsWith(data, ZIP_MAGIC) || startsWith(data, EMPTY_ZIP_MAGIC);
        final boolean gzip = data.length >= 2 && (data[0] & 0xFF) == 0x1F && (data[1] & 0xFF) == 0x8B;
        if (zip) {
            return fromZip(name, data, entry);
        }
        if (lower.endsWith(".zip")) {
            throw new RomFormatException(name + ": not a zip archive");
        }
        if (entry != null) {
            throw new RomFormatException(name + ": --entry " + entry + " names a file inside a .zip archive, and this is not one");
        }
        if (gzip) {
            return new Image(name, gunzip(name, data));
        }
        if (lower.endsWith(".gz")) {
            throw new RomFormatException(name + ": not a gzip file");
        }
        return new Image(name, data);
    }

    private static boolean startsWith(byte[] data, byte[] magic) {
        if (data.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if (data[i] != magic[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] gunzip(String name, byte[] data) throws RomFormatException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return capped(name, in, "the gzip file");
        } catch (IOException e) {
            throw new RomFormatException(name + ": corrupt gzip file (" + reason(e) + ")");
        }
    }

    private static Image fromZip(String name, byte[] data, String entry) throws RomFormatException {
        List<String> roms = new ArrayList<>();
        byte[] chosen = null;
        String chosenName = null;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(data))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                final String n = e.getName();
                if (e.isDirectory() || !n.toLowerCase(Locale.ROOT).endsWith(".nes")) {
                    continue;
                }
                roms.add(n);
                final boolean wanted = entry == null ? roms.size() == 1 : n.equals(entry) || baseName(n).equals(entry);
                if (wanted && chosen == null) {
                    chosen = capped(name, in, n);
                    chosenName = n;
                }
            }
        } catch (IOException e) {
            throw new RomFormatException(name + ": corrupt zip archive (" + reason(e) + ")");
        }
        if (roms.isEmpty()) {
            throw new RomFormatException(name + ": no .nes file inside the zip archive");
        }
        if (entry == null && roms.size() > 1) {
            throw new RomFormatException(name + ": " + roms.size() + " .nes files inside (" + String.join(", ", roms)
                    + "): choose one with --entry NAME");
        }
        if (chosen == null) {
            throw new RomFormatException(name + ": no " + entry + " inside the zip archive (it holds "
                    + String.join(", ", roms) + ")");
        }
        return new Image(name + "!" + chosenName, chosen);
    }

    private static String baseName(String entryName) {
        return entryName.substring(entryName.lastIndexOf('/') + 1);
    }

    /** The rest of {@code in}, refused past {@link #MAX_IMAGE} bytes (an archive bomb reads no further). */
    private static byte[] capped(String name, InputStream in, String what) throws IOException, RomFormatException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        long total = 0;
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            total += n;
            if (total > MAX_IMAGE) {
                throw new RomFormatException(name + ": " + what + " is too large for a ROM (over " + MAX_IMAGE
                        + " bytes unpacked)");
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private static String reason(IOException e) {
        if (e instanceof java.io.EOFException) {
            return "it ends early";
        }
        final String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
