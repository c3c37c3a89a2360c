package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./lockstep} launcher, run from a temporary copy with a stand-in {@code mvn} (which
 * writes Maven 3.8's stray colour resets and the jar) and {@code java} on the PATH: it says why it
 * builds, and what reaches the terminal carries no escape codes.
 */
class LauncherTest {
    @TempDir
    Path dir;

    private Path script() throws IOException {
        Path copy = dir.resolve("repo/lockstep");
        Files.createDirectories(copy.getParent().resolve("app/src/main/java"));
        Files.copy(BuildCopy.root().resolve("lockstep"), copy);
        copy.toFile().setExecutable(true);
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/usr/bin/env bash\n"
                + "printf '\\033[0m\\033[0m'\n"
                + "printf '\\033[0m\\033[0m' >&2\n"
                + "mkdir -p app/target && echo jar > app/target/lockstep.jar\n"
                + "if [ -n \"${FAIL_BUILD:-}\" ]; then printf '\\033[1;31m[ERROR]\\033[m it broke\\n'; exit 1; fi\n");
        Path java = Files.writeString(bin.resolve("java"), "#!/usr/bin/env bash\necho \"ran $*\"\n");
        mvn.toFile().setExecutable(true);
        java.toFile().setExecutable(true);
        return copy;
    }

    private record Run(int exit, String out, String err) {
    }

    private Run run(Path script, String... env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", script.toString(), "info"));
        pb.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
        for (int i = 0; i < env.length; i += 2) {
            pb.environment().put(env[i], env[i + 1]);
        }
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void itSaysWhyItBuildsAndPrintsNoEscapeCodes() throws Exception {
        Path script = script();
        Run first = run(script);
        assertEquals(0, first.exit(), first.err());
        assertEquals("lockstep: building app/target/lockstep.jar (no jar yet)...\n", first.err());
        assertTrue(first.out().startsWith("ran -jar ") && first.out().contains("info"), first.out());
        assertFalse(first.out().contains("\u001b"), first.out());

        Run second = run(script);
        assertEquals("", second.err(), "an up-to-date jar is run without building");

        Path jar = script.getParent().resolve("app/target/lockstep.jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.writeString(script.getParent().resolve("app/src/main/java/A.java"), "class A {}\n");
        Run third = run(script);
        assertEquals("lockstep: building app/target/lockstep.jar (sources changed)...\n", third.err());
    }

    @Test
    void aFailedBuildShowsMavensWordsWithoutEscapesAndStops() throws Exception {
        Path script = script();
        Run r = run(script, "FAIL_BUILD", "1");
        assertEquals(3, r.exit(), r.err());
        assertFalse(r.err().contains("\u001b"), r.err());
        assertTrue(r.err().contains("[ERROR] it broke"), r.err());
        assertTrue(r.err().strip().endsWith("lockstep: the build failed (mvn exit code 1)"), r.err());
        assertFalse(r.out().contains("ran "), "the jar is not run: " + r.out());
    }
}
