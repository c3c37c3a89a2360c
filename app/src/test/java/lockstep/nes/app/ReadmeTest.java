package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lockstep.nes.core.cart.BatterySave;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.roms.Expect;
import lockstep.nes.roms.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's facts that the code or the repository's files decide, checked against them. */
class ReadmeTest {
    @TempDir
    Path dir;

    private static String readme() throws IOException {
        return Files.readString(BuildCopy.root().resolve("README.md"), StandardCharsets.UTF_8);
    }

    @Test
    void theTestRomFigureCountsTheManifest() throws IOException {
        Matcher m = Pattern.compile("(\\d+) of the manifest's (\\d+) ROMs passed, every one expected to pass").matcher(readme());
        assertTrue(m.find(), "the README gives the test-ROM figure");
        Manifest manifest = Manifest.builtIn();
        assertEquals(manifest.entries().size(), Integer.parseInt(m.group(2)), "ROMs in the manifest");
        assertEquals(manifest.entries().stream().filter(e -> e.expect() == Expect.PASS).count(),
                Long.parseLong(m.group(1)), "ROMs expected to pass");
    }

    @Test
    void itNamesThePortTheDeployConfigsExpect() throws IOException {
        Path root = BuildCopy.root();
        String prometheus = Files.readString(root.resolve("deploy/prometheus/prometheus.yml"), StandardCharsets.UTF_8);
        String alertmanager = Files.readString(root.resolve("deploy/alertmanager/alertmanager.yml"), StandardCharsets.UTF_8);
        Matcher scrape = Pattern.compile("job_name: lockstep\\s+static_configs:\\s+- targets: \\['127\\.0\\.0\\.1:(\\d+)'\\]")
                .matcher(prometheus);
        assertTrue(scrape.find(), prometheus);
        String port = scrape.group(1);
        assertTrue(alertmanager.contains("url: http://127.0.0.1:" + port + "/alerts"), alertmanager);
        String readme = readme();
        assertTrue(readme.contains("deploy/ configs expect the verifier on port " + port), "README names port " + port);
        assertTrue(readme.contains("`--metrics-port " + port + "`"), readme);
    }

    @Test
    void theBatteryFileIsTheRomFileNamePlusSav() throws Exception {
        assertTrue(readme().contains("`<rom file name>.sav`"), "README names the battery file");
        Path rom = Files.write(dir.resolve("game.nes"), DemoRom.bytes());
        BatterySave save = new BatterySave(rom, Cartridge.parse(DemoRom.NAME, DemoRom.bytes()), dir.resolve("data"));
        assertEquals(dir.resolve("game.nes.sav"), save.target());
        assertTrue(readme().contains("`game.nes` →\n`game.nes.sav`") || readme().contains("`game.nes` → `game.nes.sav`"));
    }

    @Test
    void theBenchmarkFiguresGiveTheirDateAndMachineNotCommits() throws IOException {
        String readme = readme();
        String figures = readme.substring(readme.indexOf("<!-- BENCHMARK FIGURES -->"),
                readme.indexOf("<!-- END BENCHMARK FIGURES -->"));
        assertTrue(Pattern.compile("measured \\d{4}-\\d{2}-\\d{2}").matcher(figures).find(), figures);
        assertTrue(figures.contains("2-core AMD EPYC VM"), figures);
        Matcher hash = Pattern.compile("\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\\d)[0-9a-f]{7,40}\\b").matcher(figures);
        assertFalse(hash.find(), "a commit hash in the figures: " + (hash.find(0) ? hash.group() : ""));
        assertFalse(figures.contains("previous main"), figures);
    }
}
