package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lockstep test-roms} on hand-built ROMs: output lines, --json, exit codes. */
class TestRomsCommandTest {
    @TempDir
    Path roms;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;

    @BeforeEach
    void capture() {
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(oldOut);
        System.setErr(oldErr);
    }

    /** NROM that writes the $6000 signature, then {@code code} to $6000 and "hi" at $6004, then loops. */
    static byte[] rom(int code) {
        byte[] prg = new byte[16384];
        int[] p = {
            0xA9, 0xDE, 0x8D, 0x01, 0x60, 0xA9, 0xB0, 0x8D, 0x02, 0x60, 0xA9, 0x61, 0x8D, 0x03, 0x60,
            0xA9, 'h', 0x8D, 0x04, 0x60, 0xA9, 'i', 0x8D, 0x05, 0x60, 0xA9, 0x00, 0x8D, 0x06, 0x60,
            0xA9, code, 0x8D, 0x00, 0x60, 0x4C, 0x23, 0x80};
        for (int i = 0; i < p.length; i++) {
            prg[i] = (byte) p[i];
        }
        prg[0x3FFC] = 0x00;
        prg[0x3FFD] = (byte) 0x80;
        byte[] rom = new byte[16 + prg.length + 8192];
        rom[0] = 'N';
        rom[1] = 'E';
        rom[2] = 'S';
        rom[3] = 0x1A;
        rom[4] = 1;
        rom[5] = 1;
        System.arraycopy(prg, 0, rom, 16, prg.length);
        return rom;
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsAFolderPrintsLinesAndWritesJson() throws IOException {
        Files.createDirectories(roms.resolve("s"));
        Files.write(roms.resolve("s/good.nes"), rom(0));
        Path json = Files.createDirectories(roms.resolve("out")).resolve("results.json");
        int rc = Main.run("test-roms", "--roms", roms.toString(), "--json", json.toString(), "s");
        assertEquals(0, rc, stdout() + err);
        String[] lines = stdout().strip().split("\n");
        assertEquals("pass    0    s/good.nes: hi", lines[0]);
        assertEquals("1 passed, 0 failed", lines[lines.length - 1]);
        JsonNode n = new ObjectMapper().readTree(json.toFile());
        assertEquals("s/good.nes", n.get("results").get(0).get("rom").asText());
        assertEquals("pass", n.get("results").get(0).get("status").asText());
        assertEquals(0, n.get("results").get(0).get("code").asInt());
        assertEquals("hi", n.get("results").get(0).get("message").asText());
        assertEquals(1, n.get("passed").asInt());
        assertEquals(0, n.get("failed").asInt());
    }

    @Test
    void aFailingRomGivesExit1AndAPicture() throws IOException {
        Files.write(roms.resolve("bad.nes"), rom(2));
        Path pics = roms.resolve("pics");
        int rc = Main.run("test-roms", "--roms", roms.toString(), "--pictures", pics.toString(), "bad.nes");
        assertEquals(1, rc);
        assertTrue(stdout().contains("fail    2    bad.nes: hi  [expected pass]"), stdout());
        assertTrue(stdout().strip().endsWith("0 passed, 1 failed"), stdout());
        assertTrue(Files.isRegularFile(pics.resolve("bad.png")), "failure picture saved");
    }

    @Test
    void badInputIsOneLineAndExit2() {
        assertEquals(2, Main.run("test-roms", "--roms", roms.toString(), "missing.nes"));
        assertEquals("error: missing.nes: not found (looked under " + roms + ", its folders, and the working directory)",
                err.toString(StandardCharsets.UTF_8).strip());
        err.reset();
        assertEquals(2, Main.run("test-roms", "--roms", roms.resolve("nowhere").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).strip().startsWith("error: "), err.toString());
        assertEquals(1, err.toString(StandardCharsets.UTF_8).strip().split("\n").length);
    }

    /** A roms folder that exists but holds none of the manifest's ROMs: one line, not a line per ROM. */
    @Test
    void aFolderWithoutTheCollectionIsOneLineAndExit2() {
        assertEquals(2, Main.run("test-roms", "--roms", roms.toString()));
        String e = err.toString(StandardCharsets.UTF_8).strip();
        assertEquals(1, e.split("\n").length, e);
        assertTrue(e.startsWith("error: " + roms + ": none of the manifest's "), e);
        assertEquals("", stdout(), "no per-ROM lines");
    }
}
