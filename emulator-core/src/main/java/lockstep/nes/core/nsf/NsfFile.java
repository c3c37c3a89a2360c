package lockstep.nes.core.nsf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A parsed NSF (NES Sound Format) or NSFe file: the music program, where it loads, its init and
 * play routines, its play rates, its banks and the expansion sound chips it writes, and its tags.
 *
 * <p>NSF header (NESdev "NSF"), little-endian: 0 "NESM\x1A"; 5 version; 6 songs; 7 first song
 * (1-based); 8 load address; $A init; $C play; $E title, $2E artist, $4E copyright (32 bytes each,
 * NUL-padded); $6E NTSC play period in microseconds; $70 eight initial 4 KiB banks (all 0: not
 * bank-switched); $78 PAL play period; $7A bit 0 PAL, bit 1 both; $7B expansion chips (bit 0
 * VRC6, 1 VRC7, 2 FDS, 3 MMC5, 4 Namco 163, 5 Sunsoft 5B); $7D program length (NSF2; 0: to the end);
 * the program from $80.
 *
 * <p>NSFe (NESdev "NSFe"): "NSFE", then chunks of {@code u32 length, 4-letter id, data}: INFO
 * (load, init, play, region, chips, songs, first song 0-based), DATA, BANK, RATE (NTSC, PAL
 * periods), auth (title, artist, copyright, ripper), tlbl (track names), time (track lengths in
 * ms, signed; negative: the player's default), fade (fade-out lengths after them in ms, signed;
 * negative: the player's default), plst (the default playlist: track numbers from 0, one a byte,
 * in the order to play), NEND. An unknown chunk whose id starts with a capital letter is required and refused.
 */
public record NsfFile(String fileName, String title, String artist, String copyright, int songs, int firstSong,
                      int load, int init, int play, int ntscPeriod, int palPeriod, boolean pal, boolean dual,
                      int chips, int[] banks, byte[] program, List<String> trackNames, int[] trackMillis,
                      int[] playlist, int[] fadeMillis) {
    public static final int VRC6 = 1;
    public static final int VRC7 = 1 << 1;
    public static final int FDS = 1 << 2;
    public static final int MMC5 = 1 << 3;
    public static final int N163 = 1 << 4;
    public static final int SUNSOFT_5B = 1 << 5;

    /** The play period NTSC players use when a file gives none: 60.0988 Hz. */
    public static final int NTSC_DEFAULT_PERIOD = 16639;
    /** The PAL one: 50.0070 Hz. */
    public static final int PAL_DEFAULT_PERIOD = 19997;

    private static final byte[] NSF_MAGIC = {'N', 'E', 'S', 'M', 0x1A};
    private static final byte[] NSFE_MAGIC = {'N', 'S', 'F', 'E'};
    private static final int HEADER = 0x80;

    /** True when the initial banks are used ($5FF8-$5FFF switch 4 KiB banks). */
    public boolean bankSwitched() {
        for (int b : banks) {
            if (b != 0) {
                return true;
            }
        }
        return false;
    }

    /** The names of the expansion chips the file asks for, e.g. "VRC6, 5B" ("none" without). */
    public String chipNames() {
        final String[] names = {"VRC6", "VRC7", "FDS", "MMC5", "N163", "5B"};
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            if ((chips & (1 << i)) != 0) {
                b.append(b.length() > 0 ? ", " : "").append(names[i]);
            }
        }
        return b.length() > 0 ? b.toString() : "none";
    }

    /** The name of track {@code i} (0-based), or "" when the file names none. */
    public String trackName(int i) {
        return i < trackNames.size() ? trackNames.get(i) : "";
    }

    /** The length of track {@code i} in ms, or -1 when the file gives none. */
    public int trackLength(int i) {
        return i < trackMillis.length ? trackMillis[i] : -1;
    }

    /** The fade-out after track {@code i} (0-based) in ms, or -1 when the file gives none. */
    public int trackFade(int i) {
        return i < fadeMillis.length && fadeMillis[i] >= 0 ? fadeMillis[i] : -1;
    }

    /**
     * The order to play the tracks in (0-based): the NSFe playlist, entries past the song count
     * left out; without one (or with none left), every track in turn.
     */
    public int[] order() {
        final int[] valid = Arrays.stream(playlist).filter(t -> t < songs).toArray();
        return valid.length > 0 ? valid : java.util.stream.IntStream.range(0, songs).toArray();
    }

    /** True when {@code data} starts like an NSF or NSFe file. */
    public static boolean looksLike(byte[] data) {
        return startsWith(data, NSF_MAGIC) || startsWith(data, NSFE_MAGIC);
    }

    /** Parses {@code data}, read from {@code name}; refuses a bad file in one line naming the field. */
    public static NsfFile parse(String name, byte[] data) throws NsfFormatException {
        if (startsWith(data, NSF_MAGIC)) {
            return parseNsf(name, data);
        }
        if (startsWith(data, NSFE_MAGIC)) {
            return parseNsfe(name, data);
        }
        throw new NsfFormatException(name + ": not an NSF or NSFe file (no \"NESM\\x1A\" or \"NSFE\" at the start)");
    }

    private static NsfFile parseNsf(String name, byte[] d) throws NsfFormatException {
        if (d.length < HEADER) {
            throw new NsfFormatException(name + ": header truncated (" + d.length + " bytes, the NSF header is 128)");
        }
        final int songs = d[6] & 0xFF;
        final int first = d[7] & 0xFF;
        final int load = u16(d, 8);
        final int init = u16(d, 0xA);
        final int play = u16(d, 0xC);
        int[] banks = new int[8];
        for (int i = 0; i < 8; i++) {
            banks[i] = d[0x70 + i] & 0xFF;
        }
        final int length = (d[0x7D] & 0xFF) | (d[0x7E] & 0xFF) << 8 | (d[0x7F] & 0xFF) << 16;
        final int version = d[5] & 0xFF;
        int end = d.length;
        if (version >= 2 && length != 0) {
            if (HEADER + (long) length > d.length) {
                throw new NsfFormatException(name + ": program length " + length + " runs past the end of the file ("
                        + (d.length - HEADER) + " bytes after the header)");
            }
            end = HEADER + length;
        }
        if (first < 1 || first > songs) {
            throw new NsfFormatException(name + ": first song " + first + " is not between 1 and the song count " + songs);
        }
        return check(name, new NsfFile(name, text(d, 0xE, 32), text(d, 0x2E, 32), text(d, 0x4E, 32), songs, first - 1,
                load, init, play, u16(d, 0x6E), u16(d, 0x78), (d[0x7A] & 1) != 0, (d[0x7A] & 2) != 0, d[0x7B] & 0xFF,
                banks, Arrays.copyOfRange(d, HEADER, end), List.of(), new int[0], new int[0], new int[0]));
    }

    private static NsfFile parseNsfe(String name, byte[] d) throws NsfFormatException {
        int pos = 4;
        byte[] info = null;
        byte[] program = null;
        int[] banks = new int[8];
        int ntsc = 0;
        int palRate = 0;
        String title = "";
        String artist = "";
        String copyright = "";
        List<String> labels = List.of();
        int[] times = new int[0];
        int[] fades = new int[0];
        int[] playlist = new int[0];
        boolean ended = false;
        while (!ended) {
            if (pos + 8 > d.length) {
                throw new NsfFormatException(name + ": NSFe chunk header truncated at byte " + pos + " (no NEND chunk)");
            }
            final long size = u32(d, pos);
            final String id = new String(d, pos + 4, 4, StandardCharsets.ISO_8859_1);
            pos += 8;
            if (pos + size > d.length) {
                throw new NsfFormatException(name + ": NSFe chunk '" + id + "' of " + size + " bytes runs past the end of the file");
            }
            final byte[] c = Arrays.copyOfRange(d, pos, pos + (int) size);
            pos += (int) size;
            switch (id) {
                case "INFO" -> {
                    if (c.length < 8) {
                        throw new NsfFormatException(name + ": NSFe INFO chunk has " + c.length + " bytes, at least 8 needed");
                    }
                    info = c;
                }
                case "DATA" -> program = c;
                case "BANK" -> {
                    for (int i = 0; i < Math.min(8, c.length); i++) {
                        banks[i] = c[i] & 0xFF;
                    }
                }
                case "RATE" -> {
                    ntsc = c.length >= 2 ? u16(c, 0) : 0;
                    palRate = c.length >= 4 ? u16(c, 2) : 0;
                }
                case "auth" -> {
                    List<String> s = strings(c);
                    title = s.size() > 0 ? s.get(0) : "";
                    artist = s.size() > 1 ? s.get(1) : "";
                    copyright = s.size() > 2 ? s.get(2) : "";
                }
                case "tlbl" -> labels = strings(c);
                case "time" -> {
                    times = new int[c.length / 4];
                    for (int i = 0; i < times.length; i++) {
                        times[i] = (int) u32(c, 4 * i);
                    }
                }
                case "fade" -> {
                    fades = new int[c.length / 4];
                    for (int i = 0; i < fades.length; i++) {
                        fades[i] = (int) u32(c, 4 * i);
                    }
                }
                case "plst" -> {
                    playlist = new int[c.length];
                    for (int i = 0; i < c.length; i++) {
                        playlist[i] = c[i] & 0xFF;
                    }
                }
                case "NEND" -> ended = true;
                default -> {
                    if (id.charAt(0) >= 'A' && id.charAt(0) <= 'Z') {
                        throw new NsfFormatException(name + ": NSFe chunk '" + id + "' is required by the file but unknown here");
                    }
                }
            }
        }
        if (info == null) {
            throw new NsfFormatException(name + ": NSFe file has no INFO chunk");
        }
        if (program == null) {
            throw new NsfFormatException(name + ": NSFe file has no DATA chunk");
        }
        final int songs = info.length > 8 ? info[8] & 0xFF : 1;
        final int first = info.length > 9 ? info[9] & 0xFF : 0;
        if (first >= songs) {
            throw new NsfFormatException(name + ": NSFe INFO first song " + first + " is not below the song count " + songs);
        }
        return check(name, new NsfFile(name, title, artist, copyright, songs, first, u16(info, 0), u16(info, 2),
                u16(info, 4), ntsc, palRate, (info[6] & 1) != 0, (info[6] & 2) != 0, info[7] & 0xFF, banks, program,
                labels, times, playlist, fades));
    }

    /** The checks both forms share. */
    private static NsfFile check(String name, NsfFile f) throws NsfFormatException {
        if (f.songs() < 1) {
            throw new NsfFormatException(name + ": song count is 0");
        }
        if ((f.chips() & ~0x3F) != 0) {
            throw new NsfFormatException(name + ": expansion chip bits " + String.format("$%02X", f.chips())
                    + " name chips that do not exist (bits 6-7 must be 0)");
        }
        // A disk system tune runs from RAM at $6000-$DFFF, so its addresses may start at $6000
        // (NESdev "NSF", FDS); every other tune's program is at $8000-$FFFF.
        final int lowest = (f.chips() & FDS) != 0 ? 0x6000 : 0x8000;
        if (f.load() < lowest) {
            throw new NsfFormatException(name + ": load address " + hex(f.load()) + " is below " + hex(lowest));
        }
        if (f.init() < lowest) {
            throw new NsfFormatException(name + ": init address " + hex(f.init()) + " is below " + hex(lowest));
        }
        if (f.play() < lowest) {
            throw new NsfFormatException(name + ": play address " + hex(f.play()) + " is below " + hex(lowest));
        }
        if (f.program().length == 0) {
            throw new NsfFormatException(name + ": no program data");
        }
        if (!f.bankSwitched() && f.load() + f.program().length > 0x10000) {
            throw new NsfFormatException(name + ": program of " + f.program().length + " bytes at " + hex(f.load())
                    + " runs past $FFFF (and the file is not bank-switched)");
        }
        return f;
    }

    private static String hex(int v) {
        return String.format("$%04X", v);
    }

    private static boolean startsWith(byte[] d, byte[] magic) {
        return d.length >= magic.length && Arrays.equals(d, 0, magic.length, magic, 0, magic.length);
    }

    private static int u16(byte[] d, int i) {
        return (d[i] & 0xFF) | (d[i + 1] & 0xFF) << 8;
    }

    private static long u32(byte[] d, int i) {
        return (d[i] & 0xFFL) | (d[i + 1] & 0xFFL) << 8 | (d[i + 2] & 0xFFL) << 16 | (d[i + 3] & 0xFFL) << 24;
    }

    /** A NUL-padded text field (Windows-1252 in practice; read as Latin-1). */
    private static String text(byte[] d, int from, int length) {
        int end = from;
        while (end < from + length && d[end] != 0) {
            end++;
        }
        return new String(d, from, end - from, StandardCharsets.ISO_8859_1).strip();
    }

    /** NUL-terminated UTF-8 strings, one after another. */
    private static List<String> strings(byte[] c) {
        final List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= c.length; i++) {
            if (i == c.length || c[i] == 0) {
                if (i > start || i < c.length) {
                    out.add(new String(c, start, i - start, StandardCharsets.UTF_8));
                }
                start = i + 1;
            }
        }
        return out;
    }
}
