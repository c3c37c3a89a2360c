package lockstep.nes.roms;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns command-line paths (files or folders, relative to the roms dir or the working
 * directory, or absolute) into the entries to run: a ROM listed in the manifest runs as listed,
 * any other .nes file runs with $6000-protocol detection.
 */
public final class RomSelection {
    /** A path that cannot be used; the message is one line naming the path and the reason. */
    public static final class BadPathException extends Exception {
        public BadPathException(String message) {
            super(message);
        }
    }

    private RomSelection() {
    }

    public static List<RomEntry> select(Manifest manifest, Path romsDir, List<String> paths, int adHocFrames)
            throws BadPathException {
        if (paths == null || paths.isEmpty()) {
            return manifest.entries();
        }
        Map<String, RomEntry> out = new LinkedHashMap<>();
        for (String arg : paths) {
            Path p = resolve(romsDir, arg);
            List<Path> files = new ArrayList<>();
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.filter(Files::isRegularFile)
                            .filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".nes"))
                            .sorted()
                            .forEach(files::add);
                } catch (IOException | java.io.UncheckedIOException e) {
                    throw new BadPathException(arg + ": cannot list folder (" + e.getMessage() + ")");
                }
                if (files.isEmpty()) {
                    throw new BadPathException(arg + ": folder holds no .nes file");
                }
            } else {
                checkNes(arg, p);
                files.add(p);
            }
            for (Path f : files) {
                String name = name(romsDir, f);
                RomEntry e = manifest.find(name);
                out.putIfAbsent(name, e != null ? e : RomEntry.adHoc(name, adHocFrames));
            }
        }
        return new ArrayList<>(out.values());
    }

    static Path resolve(Path romsDir, String arg) throws BadPathException {
        Path given = Path.of(arg);
        if (given.isAbsolute()) {
            if (!Files.exists(given)) {
                throw new BadPathException(arg + ": not found");
            }
            return given;
        }
        if (romsDir != null && Files.exists(romsDir.resolve(arg))) {
            return romsDir.resolve(arg);
        }
        // A suite name alone ("instr_test-v5") also finds it inside a collection folder of the
        // roms dir (nes-test-roms/instr_test-v5), the first such folder in name order.
        if (romsDir != null && Files.isDirectory(romsDir)) {
            List<Path> collections = new ArrayList<>();
            try (Stream<Path> list = Files.list(romsDir)) {
                list.filter(Files::isDirectory).sorted().forEach(collections::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                throw new BadPathException(romsDir + ": cannot list folder (" + e.getMessage() + ")");
            }
            for (Path c : collections) {
                if (Files.exists(c.resolve(arg))) {
                    return c.resolve(arg);
                }
            }
        }
        if (Files.exists(given)) {
            return given.toAbsolutePath();
        }
        throw new BadPathException(arg + ": not found (looked under " + romsDir + ", its folders, and the working directory)");
    }

    private static void checkNes(String arg, Path p) throws BadPathException {
        if (!Files.isRegularFile(p)) {
            throw new BadPathException(arg + ": not a file or folder");
        }
        byte[] head = new byte[4];
        int n;
        try (InputStream in = Files.newInputStream(p)) {
            n = in.readNBytes(head, 0, 4);
        } catch (IOException e) {
            throw new BadPathException(arg + ": cannot read (" + e.getMessage() + ")");
        }
        if (n < 4 || head[0] != 'N' || head[1] != 'E' || head[2] != 'S' || head[3] != 0x1A) {
            throw new BadPathException(arg + ": not an iNES ROM (bad magic)");
        }
    }

    /** The ROM's name: its path under the roms dir with '/' separators, or its absolute path. */
    static String name(Path romsDir, Path file) {
        Path abs = file.toAbsolutePath().normalize();
        if (romsDir != null) {
            Path root = romsDir.toAbsolutePath().normalize();
            if (abs.startsWith(root)) {
                return root.relativize(abs).toString().replace('\\', '/');
            }
        }
        return abs.toString();
    }
}
