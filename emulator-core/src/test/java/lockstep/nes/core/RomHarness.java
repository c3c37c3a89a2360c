package lockstep.nes.core;

import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The one harness for the engine's ROM tests: finds the shared test ROMs and reads the result
 * protocols ($6000, blargg's zero-page result byte, the text on screen).
 */
public final class RomHarness {
    /** A ROM's outcome: its result code (-1 = timeout) and the text it printed. */
    public record Outcome(int code, String text, long frames) {
        @Override
        public String toString() {
            return "code=" + code + " frames=" + frames + " text=" + text.trim().replace('\n', '|');
        }
    }

    private RomHarness() {
    }

    /**
     * The ROM at {@code rel} under nes-test-roms (the folder from -Dlockstep.roms, LOCKSTEP_ROMS,
     * else ../shared/roms); skips the test, or fails it when CI=true, if the ROM is absent.
     */
    public static Path rom(String rel) {
        String dir = System.getProperty("lockstep.roms");
        if (dir == null || dir.isEmpty()) {
            dir = System.getenv("LOCKSTEP_ROMS");
        }
        if (dir == null || dir.isEmpty()) {
            dir = "../shared/roms";
        }
        Path p = Path.of(dir, "nes-test-roms", rel);
        if (!Files.isRegularFile(p)) {
            String msg = "test ROM not found: " + p + " (set -Dlockstep.roms or LOCKSTEP_ROMS)";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(msg);
            }
            Assumptions.abort(msg);
        }
        return p;
    }

    /** A powered-on engine for the ROM at {@code rel}. */
    public static Console console(String rel) throws Exception {
        Cartridge cart = Cartridge.load(rom(rel));
        try {
            return Console.create(cart);
        } catch (RomFormatException e) {
            // A board not implemented yet (mappers are another issue): not this test's result.
            Assumptions.assumeFalse(e.getMessage().contains("unsupported mapper"), e.getMessage());
            throw e;
        }
    }

    /**
     * Runs a ROM that reports through $6000 (signature DE B0 61 at $6001). When it asks for a
     * reset ($81) the reset is pressed 10 frames later, once: the ROM shows $81 until it writes
     * $80 again (as roms-test's RomRunner does).
     */
    public static Outcome run6000(Console c, int maxFrames) {
        int resetAt = -1;
        boolean resetDone = false;
        for (int f = 0; f < maxFrames; f++) {
            c.runFrame();
            if (resetAt >= 0 && f >= resetAt) {
                resetAt = -1;
                resetDone = true;
                c.reset();
                continue;
            }
            if (c.peek(0x6001) != 0xDE || c.peek(0x6002) != 0xB0 || c.peek(0x6003) != 0x61) {
                continue;
            }
            int status = c.peek(0x6000);
            if (status == 0x80) {
                resetDone = false;
            } else if (status == 0x81) {
                if (resetAt < 0 && !resetDone) {
                    resetAt = f + 10;
                }
            } else if (status < 0x80) {
                return new Outcome(status, text6000(c), f);
            }
        }
        return new Outcome(-1, text6000(c), maxFrames);
    }

    public static Outcome run6000(String rel, int maxFrames) throws Exception {
        return run6000(console(rel), maxFrames);
    }

    /** The text log at $6004 (zero-terminated). */
    public static String text6000(Console c) {
        StringBuilder sb = new StringBuilder();
        for (int a = 0x6004; a < 0x7000; a++) {
            int ch = c.peek(a);
            if (ch == 0) {
                break;
            }
            sb.append((char) ch);
        }
        return sb.toString();
    }

    /**
     * Runs an older blargg ROM that leaves its result in $F8 (1 = passed, 2+ = failing test) and
     * then loops. $F8 also holds the number of the test in progress, so a value is final only
     * once it is 1 (held for 30 frames) or the frame limit is reached.
     */
    public static Outcome runF8(String rel, int maxFrames) throws Exception {
        return runZeroPage(rel, 0xF8, maxFrames);
    }

    /** As {@link #runF8}, with the result byte at {@code addr} (blargg's 2005 PPU/APU tests use $F0). */
    public static Outcome runZeroPage(String rel, int addr, int maxFrames) throws Exception {
        Console c = console(rel);
        int stable = 0;
        int last = 0;
        for (int f = 0; f < maxFrames; f++) {
            c.runFrame();
            int r = c.peek(addr);
            if (r == 1 && r == last) {
                if (++stable >= 30) {
                    return new Outcome(r, "", f);
                }
            } else {
                stable = 0;
            }
            last = r;
        }
        return new Outcome(last, "result byte after " + maxFrames + " frames", maxFrames);
    }

    /** The first nametable as text, one trimmed line per non-empty row (blargg's console font is ASCII). */
    public static String screen(Console c) {
        StringBuilder all = new StringBuilder();
        for (int row = 0; row < 30; row++) {
            StringBuilder line = new StringBuilder();
            for (int col = 0; col < 32; col++) {
                int t = c.mapper().ppuRead(0x2000 + row * 32 + col);
                line.append(t >= 0x20 && t < 0x7F ? (char) t : ' ');
            }
            String l = line.toString().trim();
            if (!l.isEmpty()) {
                all.append(l).append('\n');
            }
        }
        return all.toString();
    }
}
