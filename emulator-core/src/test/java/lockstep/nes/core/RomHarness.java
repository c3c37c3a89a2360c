package lockstep.nes.core;

import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** A small harness for ROM tests: finds the shared ROMs and reads the result protocols. */
final class RomHarness {
    /** A ROM's outcome: its result code (-1 = timeout) and the text it printed. */
    record Outcome(int code, String text, long frames) {
        @Override
        public String toString() {
            return "code=" + code + " frames=" + frames + " text=" + text.trim().replace('\n', '|');
        }
    }

    private RomHarness() {
    }

    /** The ROM at {@code rel} under nes-test-roms; skips (or fails when CI=true) if absent. */
    static Path rom(String rel) {
        String dir = System.getProperty("lockstep.roms");
        if (dir == null || dir.isEmpty()) {
            dir = System.getenv("LOCKSTEP_ROMS");
        }
        Path p = dir == null ? null : Path.of(dir, "nes-test-roms", rel);
        if (p == null || !Files.isRegularFile(p)) {
            String msg = "test ROM not found: " + rel + " (set -Dlockstep.roms or LOCKSTEP_ROMS)";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(msg);
            }
            Assumptions.abort(msg);
        }
        return p;
    }

    static Console console(String rel) throws Exception {
        Cartridge cart = Cartridge.load(rom(rel));
        try {
            return Console.create(cart);
        } catch (RomFormatException e) {
            // A board not implemented yet (mappers are another issue): not a PPU result.
            Assumptions.assumeFalse(e.getMessage().contains("unsupported mapper"), e.getMessage());
            throw e;
        }
    }

    /** Runs a ROM that reports through $6000 (signature DE B0 61 at $6001). */
    static Outcome run6000(Console c, int maxFrames) {
        int resetAt = -1;
        for (int f = 0; f < maxFrames; f++) {
            c.runFrame();
            if (c.peek(0x6001) != 0xDE || c.peek(0x6002) != 0xB0 || c.peek(0x6003) != 0x61) {
                continue;
            }
            int status = c.peek(0x6000);
            if (status == 0x81) {
                if (resetAt < 0) {
                    resetAt = f + 8;
                } else if (f >= resetAt) {
                    resetAt = -1;
                    c.reset();
                }
            } else if (status < 0x80) {
                return new Outcome(status, text6000(c), f);
            }
        }
        return new Outcome(-1, text6000(c), maxFrames);
    }

    static Outcome run6000(String rel, int maxFrames) throws Exception {
        return run6000(console(rel), maxFrames);
    }

    static String text6000(Console c) {
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
    static Outcome runF8(String rel, int maxFrames) throws Exception {
        return runZeroPage(rel, 0xF8, maxFrames);
    }

    /** As {@link #runF8}, with the result byte at {@code addr} (blargg_ppu_tests use $F0). */
    static Outcome runZeroPage(String rel, int addr, int maxFrames) throws Exception {
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
}
