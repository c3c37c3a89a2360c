package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;

/** Runs test ROMs headless and reads their result ($6000 protocol or blargg's old $F8 byte). */
final class RomHarness {
    private RomHarness() {
    }

    /** The test ROM folder, or a skipped (failed under CI=true) test when it is missing. */
    static Path roms() {
        String prop = System.getProperty("lockstep.roms");
        if (prop == null) {
            prop = System.getenv("LOCKSTEP_ROMS");
        }
        Path dir = prop == null ? Path.of("../shared/roms") : Path.of(prop);
        Path tests = dir.resolve("nes-test-roms");
        boolean present = Files.isDirectory(tests);
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("test ROMs not found at " + tests);
        }
        assumeTrue(present, "test ROMs not found at " + tests);
        return tests;
    }

    static Console load(String rom) throws Exception {
        Path path = roms().resolve(rom);
        assumeTrue(Files.isRegularFile(path) || "true".equals(System.getenv("CI")), "missing " + path);
        return Console.create(Cartridge.load(path));
    }

    /** The result of a $6000-protocol ROM: "code: text", or "timeout: text". */
    static String run6000(String rom, int maxFrames) throws Exception {
        Console c = load(rom);
        int resetAt = -1;
        for (int frame = 0; frame < maxFrames; frame++) {
            c.runFrame();
            boolean signed = c.peek(0x6001) == 0xDE && c.peek(0x6002) == 0xB0 && c.peek(0x6003) == 0x61;
            if (!signed) {
                continue;
            }
            int status = c.peek(0x6000);
            if (status == 0x81) {
                if (resetAt < 0) {
                    resetAt = frame + 6;
                } else if (frame == resetAt) {
                    c.reset();
                }
            } else if (status == 0x80) {
                resetAt = -1;
            } else if (status < 0x80) {
                return status + ": " + text(c);
            }
        }
        return "timeout: " + text(c);
    }

    /**
     * blargg's 2005 APU tests: the number of the test running is kept at $F0 and set to 1
     * once all have passed; a failure leaves the failing test's number there.
     */
    static int runF0(String rom, int maxFrames) throws Exception {
        Console c = load(rom);
        for (int frame = 0; frame < maxFrames; frame++) {
            c.runFrame();
            if (c.peek(0xF0) == 1) {
                return 1;
            }
        }
        return c.peek(0xF0);
    }

    /** The first nametable as text, one trimmed line per non-empty row (blargg's console font is ASCII). */
    static String screen(Console c) {
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

    static String text(Console c) {
        StringBuilder sb = new StringBuilder();
        for (int a = 0x6004; a < 0x7000; a++) {
            int ch = c.peek(a);
            if (ch == 0) {
                break;
            }
            sb.append((char) ch);
        }
        return sb.toString().trim();
    }
}
