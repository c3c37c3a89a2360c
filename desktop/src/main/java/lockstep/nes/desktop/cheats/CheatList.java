package lockstep.nes.desktop.cheats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.CheatException;
import lockstep.nes.core.cheat.Cheats;

/**
 * A game's cheat list as the desktop app keeps it: codes in the order they were added, each on or
 * off. Saved per ROM in the config folder ({@link #fileFor}), one code a line:
 * <pre>
 *  on SXIOPO
 *  off 0075:09
 * </pre>
 * Blank lines and lines starting with {@code #} are ignored. The codes that are on are what the
 * console runs ({@link #enabled}), at most {@link Cheats#MAX} of them.
 */
public final class CheatList {
    /** One code and whether it is in effect. */
    public record Entry(Cheat cheat, boolean on) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /** The file the cheats of the ROM file named {@code romName} are kept in, under {@code config}. */
    public static Path fileFor(Path config, String romName) {
        return config.resolve("cheats").resolve(romName + ".cheats");
    }

    /** The list in {@code file}; an empty list when there is no such file. */
    public static CheatList load(Path file) throws CheatListException {
        final CheatList list = new CheatList();
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return list;
        } catch (IOException e) {
            throw new CheatListException(file + ": cannot read (" + e.getMessage() + ")");
        }
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String[] parts = line.split("\\s+", 2);
            final boolean on;
            if (parts[0].equals("on")) {
                on = true;
            } else if (parts[0].equals("off")) {
                on = false;
            } else {
                throw new CheatListException(file + ": line " + (i + 1) + ": starts with '" + parts[0]
                        + "', not 'on' or 'off'");
            }
            if (parts.length < 2) {
                throw new CheatListException(file + ": line " + (i + 1) + ": no code after '" + parts[0] + "'");
            }
            try {
                list.entries.add(new Entry(Cheat.parse(parts[1]), on));
            } catch (CheatException e) {
                throw new CheatListException(file + ": line " + (i + 1) + ": " + e.getMessage());
            }
            if (on && list.enabled().size() > Cheats.MAX) {
                throw new CheatListException(file + ": line " + (i + 1) + ": more than " + Cheats.MAX + " codes on");
            }
        }
        return list;
    }

    /** Writes the list to {@code file} (replacing it whole, the folder created if need be). */
    public void save(Path file) throws IOException {
        final StringBuilder b = new StringBuilder();
        for (Entry e : entries) {
            b.append(e.on() ? "on " : "off ").append(e.cheat().code()).append('\n');
        }
        AtomicFile.writeCreatingFolder(file, b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Adds {@code code}, on; fails with one line naming a bad code, or when {@link Cheats#MAX} are on already. */
    public Cheat add(String code) throws CheatException {
        final Cheat c = Cheat.parse(code);
        if (enabled().size() >= Cheats.MAX) {
            throw new CheatException("cheat '" + c.code() + "': " + Cheats.MAX + " codes are on already");
        }
        entries.add(new Entry(c, true));
        return c;
    }

    /** Puts entry {@code index} (0-based) on or off; fails when turning on a code past {@link Cheats#MAX}. */
    public void set(int index, boolean on) throws CheatException {
        final Entry e = entries.get(index);
        if (on && !e.on() && enabled().size() >= Cheats.MAX) {
            throw new CheatException("cheat '" + e.cheat().code() + "': " + Cheats.MAX + " codes are on already");
        }
        entries.set(index, new Entry(e.cheat(), on));
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The codes that are on, in order: what the console runs. */
    public List<Cheat> enabled() {
        final List<Cheat> out = new ArrayList<>();
        for (Entry e : entries) {
            if (e.on()) {
                out.add(e.cheat());
            }
        }
        return out;
    }
}
