package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;
import lockstep.nes.verifier.host.HostClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --fds-bios} and {@code --disk-side} reach the engine hosts (separate JVMs) of
 * {@code verify --mode processes} and the canary: the BIOS lies outside an empty config folder,
 * so a host that looked in its config folder would refuse the disk.
 */
class DiskHostsTest {
    @TempDir
    Path tmp;

    private Path game() throws Exception {
        return Files.write(Files.createDirectories(tmp.resolve("games")).resolve("game.fds"), DiskCommandsTest.disk());
    }

    private Path bios() throws Exception {
        return Files.write(Files.createDirectories(tmp.resolve("elsewhere")).resolve("bios.rom"), DiskCommandsTest.bios());
    }

    /** {@code lockstep ARGS} in its own JVM (so its hosts inherit the empty config folder): exit status and stderr. */
    private String[] lockstep(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("XDG_CONFIG_HOME", Files.createDirectories(tmp.resolve("config")).toString());
        pb.environment().put("XDG_DATA_HOME", tmp.resolve("data").toString());
        Path err = tmp.resolve("stderr-" + System.nanoTime());
        pb.redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "lockstep " + String.join(" ", args) + " did not exit");
        return new String[] {Integer.toString(p.exitValue()), Files.readString(err, StandardCharsets.UTF_8).strip()};
    }

    @Test
    void aProcessesModeVerifyRunsTheBiosAndSideGiven() throws Exception {
        String[] r = lockstep("verify", game().toString(), "--mode", "processes", "--fds-bios", bios().toString(),
                "--disk-side", "1B", "--frames", "20");
        assertEquals("0", r[0], r[1]);
        // Without the BIOS the hosts have none to take: the command refuses the disk in one line.
        r = lockstep("verify", game().toString(), "--mode", "processes", "--frames", "5");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("needs the BIOS"), r[1]);
    }

    @Test
    void aCanaryRunsTheBiosAndSideGiven() throws Exception {
        Path jar = HostJar.make(Files.createDirectories(tmp.resolve("jar")));
        String[] r = lockstep("canary", "--baseline", jar.toString(), "--candidate", jar.toString(), "--rom",
                game().toString(), "--fds-bios", bios().toString(), "--disk-side", "1B", "--frames", "20",
                "--no-progress");
        assertEquals("0", r[0], r[1]);
    }

    @Test
    void aHostLoadsTheBiosBytesAndStartsOnTheSideSent() throws Exception {
        Path jar = HostJar.make(Files.createDirectories(tmp.resolve("jar")));
        byte[] disk = DiskCommandsTest.disk();
        byte[] bios = DiskCommandsTest.bios();
        try (HostClient host = HostClient.start("host", jar.toString(), 60_000)) {
            host.loadRom("game.fds", disk, null, List.of(), bios, "1B");
            host.runFrames(2);
            HostClient.Snapshot s = host.snapshot();
            // The host's state loads into a console of that BIOS (the ROM id covers it) and holds side 1B.
            Console local = Console.create(DiskSystem.cartridge("game.fds", disk, bios, 0));
            new Snapshots(local).load(s.data());
            assertEquals(1, field(local, "drive.insertedSide"));
            Console expected = Console.create(DiskSystem.cartridge("game.fds", disk, bios, 1));
            expected.runFrame();
            expected.runFrame();
            assertEquals(new Snapshots(expected).stateHash(), new Snapshots(local).stateHash());
        }
    }

    private static long field(Console c, String name) {
        for (StateEntry e : Describer.describe(c)) {
            if (e.path().endsWith(name)) {
                return e.value();
            }
        }
        throw new AssertionError("no " + name);
    }
}
