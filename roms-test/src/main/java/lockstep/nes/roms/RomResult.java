package lockstep.nes.roms;

/**
 * The outcome of one ROM run.
 *
 * @param entry   what was run (the manifest entry, or an ad-hoc $6000 entry)
 * @param status  pass, fail, timeout or error
 * @param code    the ROM's result code ($6000 status, $F8 byte, ...) or null when it gave none
 * @param message the text the ROM printed (may span lines), or what went wrong
 * @param frames  frames run
 * @param picture the last picture (256x240 9-bit values), or null when none was made
 */
public record RomResult(RomEntry entry, Status status, Integer code, String message, int frames,
                        short[] picture) {

    public String rom() {
        return entry.rom();
    }

    public boolean passed() {
        return status == Status.PASS;
    }

    /** True when the outcome is what the manifest expects (pass for pass, anything else otherwise). */
    public boolean asExpected() {
        return (status == Status.PASS) == (entry.expect() == Expect.PASS);
    }

    /** The message on one line: line breaks become " / ", runs of blanks one space. */
    public String oneLineMessage() {
        return oneLine(message);
    }

    static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\\R")) {
            String t = line.strip().replaceAll("\\s+", " ");
            if (!t.isEmpty()) {
                if (sb.length() > 0) {
                    sb.append(" / ");
                }
                sb.append(t);
            }
        }
        return sb.toString();
    }
}
