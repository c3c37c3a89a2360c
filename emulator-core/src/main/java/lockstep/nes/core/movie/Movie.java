package lockstep.nes.core.movie;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.ppu.Region;

/**
 * An input movie: header key/value lines in file order (comment and subtitle lines included)
 * and one {@link Frame} per emulated frame.
 */
public record Movie(List<Header> header, List<Frame> frames) {
    public Movie {
        header = List.copyOf(header);
        frames = List.copyOf(frames);
    }

    /** One header line. */
    public record Header(String key, String value) {
    }

    /**
     * One frame's input: commands ({@link Fm2#COMMAND_RESET}, {@link Fm2#COMMAND_POWER}) and
     * the buttons of ports 0 and 1 in controller bit order (A = 0x01 ... Right = 0x80).
     */
    public record Frame(int commands, int port0, int port1) {
        public boolean reset() {
            return (commands & Fm2.COMMAND_RESET) != 0;
        }

        public boolean power() {
            return (commands & Fm2.COMMAND_POWER) != 0;
        }
    }

    /** The first value of header {@code key}, or null. */
    public String get(String key) {
        for (Header h : header) {
            if (h.key().equals(key)) {
                return h.value();
            }
        }
        return null;
    }

    /**
     * The console the movie was recorded on, given the one the ROM's header names: FCEUX's
     * {@code palFlag 1} is a PAL console, {@code palFlag 0} a 60 Hz one (an NTSC console for a
     * PAL ROM; a Dendy ROM stays Dendy); without the line, the header's.
     */
    public Region region(Region fromHeader) {
        String pal = get("palFlag");
        if ("1".equals(pal)) {
            return Region.PAL;
        }
        if ("0".equals(pal) && fromHeader == Region.PAL) {
            return Region.NTSC;
        }
        return fromHeader;
    }

    /** All values of a repeated header key (comment, subtitle). */
    public List<String> all(String key) {
        List<String> out = new ArrayList<>();
        for (Header h : header) {
            if (h.key().equals(key)) {
                out.add(h.value());
            }
        }
        return out;
    }

    /** A header for a new movie of {@code romFilename} with two gamepads. */
    public static List<Header> defaultHeader(String romFilename, String romChecksum, String guid) {
        return List.of(
                new Header("version", "3"),
                new Header("emuVersion", "22020"),
                new Header("rerecordCount", "0"),
                new Header("palFlag", "0"),
                new Header("romFilename", romFilename),
                new Header("romChecksum", romChecksum),
                new Header("guid", guid),
                new Header("fourscore", "0"),
                new Header("microphone", "0"),
                new Header("port0", "1"),
                new Header("port1", "1"),
                new Header("port2", "0"),
                new Header("FDS", "0"),
                new Header("NewPPU", "0"));
    }
}
