package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.SnapshotEdit;
import lockstep.nes.state.Describer;
import lockstep.nes.state.FieldRange;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Semantically impossible inputs with nothing wrong in their envelope: snapshots whose checksum
 * is right but whose values cannot happen, and {@code --inject} values out of their field's
 * range. Each is refused in one line naming the field and its value, exit code 2.
 */
class BadStateInputTest {
    @TempDir
    static Path tmp;

    private static byte[] good;

    @BeforeAll
    static void saveAGoodSnapshot() throws Exception {
        Path file = tmp.resolve("good.lss");
        Cli.Result r = Cli.run("headless", "--frames", "3", "--save-state", file.toString());
        assertEquals(0, r.exit(), r.err());
        good = Files.readAllBytes(file);
    }

    private static Cli.Result loadPlanted(String path, long value) throws Exception {
        Path bad = tmp.resolve("snap.lss");
        Files.write(bad, SnapshotEdit.plant(good, path, value));
        return Cli.run("headless", "--load-state", bad.toString(), "--frames", "1");
    }

    private static void assertRefused(Cli.Result r, String line) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(List.of("error: " + line), r.err().strip().lines().toList());
    }

    @Test
    void theReportedSnapshotsAreRefusedNamingTheField() throws Exception {
        String file = tmp.resolve("snap.lss").toString();
        assertRefused(loadPlanted("ppu.scanline", -500), file + ": ppu.scanline = -500 is out of range 0..261");
        assertRefused(loadPlanted("ppu.scanline", 9999), file + ": ppu.scanline = 9999 is out of range 0..261");
        assertRefused(loadPlanted("ppu.dot", 100000), file + ": ppu.dot = 100000 is out of range 0..340");
        assertRefused(loadPlanted("cpu.opcode", 0x7FFF), file + ": cpu.opcode = 32767 is out of range 0..258");
        assertRefused(loadPlanted("ppu.vblank", 2), file + ": bool 'ppu.vblank' has value 2");
    }

    @Test
    void everyDeclaredRangeIsHeldAtTheCommandLine() throws Exception {
        Describer d = new Describer();
        Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes())).state(d);
        String file = tmp.resolve("snap.lss").toString();
        List<String> checked = new ArrayList<>();
        for (FieldRange r : d.ranges()) {
            FieldRange kind = FieldRange.implied(r.path(), r.tag());
            String field = r.tag() == lockstep.nes.state.EntryTag.INTS ? r.path() + "[0]" : r.path();
            if (r.max() < kind.max()) {
                assertRefused(loadPlanted(r.path(), r.max() + 1),
                        file + ": " + FieldRange.refusal(field, r.max() + 1, r.min(), r.max()));
                checked.add(r.path());
            }
            if (r.min() > kind.min()) {
                assertRefused(loadPlanted(r.path(), r.min() - 1),
                        file + ": " + FieldRange.refusal(field, r.min() - 1, r.min(), r.max()));
            }
        }
        assertTrue(checked.size() > 50, checked.toString());
    }

    @Test
    void injectValuesOutOfTheirFieldsRangeAreRefusedNotTruncated() {
        String[][] cases = {
            {"reg@100:A:cpu.a=$1FF", "cpu.a = 511 is out of range 0..255"},
            {"reg@100:B:ppu.fineX=225", "ppu.fineX = 225 is out of range 0..7"},
            {"reg@100:A:ppu.dot=341", "ppu.dot = 341 is out of range 0..340"},
        };
        for (String mode : new String[] {"same-thread", "processes"}) {
            for (String[] c : cases) {
                Cli.Result r = Cli.run("verify", "--mode", mode, "--frames", "1", "--inject", c[0]);
                assertEquals(2, r.exit(), mode + " " + c[0] + ": " + r.out() + r.err());
                assertEquals(1, r.err().strip().lines().count(), r.err());
                assertTrue(r.err().startsWith("error: bad --inject '") && r.err().strip().endsWith(c[1]), r.err());
            }
        }
    }
}
