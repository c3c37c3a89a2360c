package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.Console;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.netplay.Conditioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep netplay host} and {@code join} as two processes, a conditioned network between
 * them (in this JVM), each replaying its own movie; and the command line's failures, each one
 * line with its documented exit code.
 */
class NetplayCommandTest {
    @TempDir
    Path tmp;

    private record Proc(Process process, Path outFile, Path errFile) {
        String out() throws Exception {
            return Files.readString(outFile);
        }

        String err() throws Exception {
            return Files.readString(errFile);
        }

        int waitFor() throws Exception {
            assertTrue(process.waitFor(90, TimeUnit.SECONDS), "exits: " + out() + err());
            return process.exitValue();
        }

        String lastLine() throws Exception {
            String[] lines = out().strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    private Proc start(String name, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve(name + ".out");
        Path err = tmp.resolve(name + ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("XDG_DATA_HOME", tmp.resolve("data").toString());
        return new Proc(pb.start(), out, err);
    }

    /** The UDP port a host process listens on, from its first line. */
    private static int port(Proc host) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            String out = host.out();
            int at = out.indexOf("listening on UDP port ");
            if (at >= 0 && out.indexOf('\n', at) > 0) {
                return Integer.parseInt(out.substring(at + 22, out.indexOf('\n', at)).trim());
            }
            assertTrue(host.process().isAlive() && System.nanoTime() < deadline, "host started: " + out + host.err());
            Thread.sleep(50);
        }
    }

    /** A movie of made-up pad-1 input: buttons held for 5 to 20 frames. */
    private Path movie(String name, long seed, int frames) throws Exception {
        java.util.Random r = new java.util.Random(seed);
        List<Movie.Frame> fs = new ArrayList<>();
        int held = 0;
        int buttons = 0;
        for (int f = 0; f < frames; f++) {
            if (held-- <= 0) {
                buttons = r.nextInt(256);
                held = 5 + r.nextInt(16);
            }
            fs.add(new Movie.Frame(0, buttons, 0));
        }
        Path p = tmp.resolve(name + ".fm2");
        Fm2.write(new Movie(Movie.defaultHeader(DemoRom.NAME, "", "00000000-0000-0000-0000-000000000000"), fs), p);
        return p;
    }

    /** The state hash a fresh engine reaches with the host's movie on pad 1 and the joiner's on pad 2, each delayed. */
    private static String replay(Path hostMovie, Path joinMovie, int frames, int delay) throws Exception {
        Movie h = Fm2.read(hostMovie);
        Movie j = Fm2.read(joinMovie);
        Console c = Console.create(DemoRom.cartridge());
        for (int f = 0; f < frames; f++) {
            int m = f - delay;
            c.setButtons(0, m >= 0 && m < h.frames().size() ? h.frames().get(m).port0() : 0);
            c.setButtons(1, m >= 0 && m < j.frames().size() ? j.frames().get(m).port0() : 0);
            c.runFrame();
        }
        return new Snapshots(c).stateHash();
    }

    @Test
    void twoProcessesOverALossyDelayedNetworkEndInTheReplayedState() throws Exception {
        int frames = 600;
        Path m1 = movie("p1", 1, frames);
        Path m2 = movie("p2", 2, frames);
        Proc host = start("host", "netplay", "host", "builtin:demo", "--port", "0", "--fps", "0", "--frames",
                String.valueOf(frames), "--movie", m1.toString(), "--report", tmp.resolve("host.json").toString());
        int port = port(host);
        try (Conditioner net = new Conditioner(new Conditioner.Setting("20ms jitter 10, 10% loss, 5% dup", 20, 10, 0.10, 0.05),
                port, 11)) {
            Proc join = start("join", "netplay", "join", "127.0.0.1:" + net.port(), "builtin:demo", "--fps", "0",
                    "--frames", String.valueOf(frames), "--movie", m2.toString(), "--report", tmp.resolve("join.json").toString());
            assertEquals(0, host.waitFor(), host.out() + host.err());
            assertEquals(0, join.waitFor(), join.out() + join.err());
            // No --delay: the host chose it from the handshake's round trip, 40 ms or more here.
            int delay = new ObjectMapper().readTree(tmp.resolve("host.json").toFile()).path("delay").asInt();
            assertTrue(delay >= 2 && delay <= 7, "auto delay " + delay + " for a 40 ms round trip");
            String truth = replay(m1, m2, frames, delay);
            assertTrue(host.lastLine().startsWith("netplay host: " + frames + " frames, "), host.lastLine());
            assertTrue(host.lastLine().endsWith("0 desyncs, state sha256 " + truth), host.lastLine());
            assertTrue(join.lastLine().startsWith("netplay join: " + frames + " frames, "), join.lastLine());
            assertTrue(join.lastLine().endsWith("0 desyncs, state sha256 " + truth), join.lastLine());
            JsonNode r = new ObjectMapper().readTree(tmp.resolve("join.json").toFile());
            assertEquals(truth, r.path("finalStateHash").asText());
            assertTrue(r.path("rollbacks").asInt() > 0, "a delayed network makes rollbacks: " + r);
        }
    }

    @Test
    void aDesyncPlantedIntoTheJoinerIsReportedOnBothSidesAndExits1() throws Exception {
        int frames = 300;
        Proc host = start("dhost", "netplay", "host", "builtin:demo", "--port", "0", "--fps", "0", "--frames",
                String.valueOf(frames), "--report", tmp.resolve("dh.json").toString());
        int port = port(host);
        Cli.Result join = Cli.run("netplay", "join", "127.0.0.1:" + port, "builtin:demo", "--fps", "0", "--frames",
                String.valueOf(frames), "--inject", "reg@3000000:B:cpu.a=$42", "--report", tmp.resolve("dj.json").toString());
        assertEquals(1, host.waitFor(), host.out() + host.err());
        assertEquals(1, join.exit(), join.out() + join.err());
        for (String f : List.of("dh.json", "dj.json")) {
            JsonNode d = new ObjectMapper().readTree(tmp.resolve(f).toFile()).path("desyncs").path(0);
            assertEquals(100, d.path("frame").asInt(), d.toString());
            assertEquals(3000000, d.path("localized").path("cycle").asLong(), d.toString());
            assertEquals("cpu.a", d.path("localized").path("fields").path(0).path("field").asText(), d.toString());
            assertEquals("0x42", d.path("localized").path("fields").path(0).path("b").asText(), d.toString());
        }
        String[] lines = join.out().strip().split("\n");
        String joinLast = lines[lines.length - 1];
        assertTrue(host.lastLine().endsWith(joinLast.substring(joinLast.indexOf("frames,"))),
                "both resume identical: " + host.lastLine() + " / " + joinLast);
    }

    @Test
    void anotherRomIsRefusedOnBothSidesWithExit4() throws Exception {
        Path other = tmp.resolve("other.nes");
        byte[] prg = new byte[0x4000];
        prg[0x3FFC] = 0x00;
        prg[0x3FFD] = (byte) 0xC0;
        prg[0] = 0x4C; // JMP $C000
        prg[1] = 0x00;
        prg[2] = (byte) 0xC0;
        Files.write(other, lockstep.nes.core.demo.Ines.nrom(prg, new byte[8192], false));
        Proc host = start("rhost", "netplay", "host", "builtin:demo", "--port", "0", "--wait", "20");
        int port = port(host);
        Cli.Result join = Cli.run("netplay", "join", "127.0.0.1:" + port, other.toString(), "--wait", "20");
        assertEquals(4, host.waitFor(), host.err());
        assertEquals(4, join.exit(), join.err());
        for (String err : List.of(host.err().strip(), join.err().strip())) {
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.startsWith("error: netplay ") && err.contains("ROM differs (sha1 "), err);
        }
    }

    @Test
    void aPortInUseNoAnswerAndABadInjectAreOneLineEach() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress(0))) {
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            Cli.Result r = Cli.run("netplay", "host", "builtin:demo", "--port", String.valueOf(port));
            assertEquals(4, r.exit(), r.err());
            assertTrue(r.err().startsWith("error: netplay host: cannot listen on UDP port " + port + ": "), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            Cli.Result j = Cli.run("netplay", "join", "127.0.0.1:" + port, "builtin:demo", "--wait", "1");
            assertEquals(4, j.exit(), j.err());
            assertTrue(j.err().strip().startsWith("error: netplay join: no answer from 127.0.0.1:" + port + " within 1 s"), j.err());
        }
        Cli.Result b = Cli.run("netplay", "host", "builtin:demo", "--port", "0", "--inject", "ram-bitflip@100:B");
        assertEquals(2, b.exit(), b.err());
        assertTrue(b.err().strip().startsWith("error: bad --inject 'ram-bitflip@100:B"), b.err());
        assertEquals(1, b.err().strip().lines().count(), b.err());
        Cli.Result a = Cli.run("netplay", "join", "nowhere", "builtin:demo");
        assertEquals(2, a.exit(), a.err());
        assertTrue(a.err().contains("'nowhere' is not HOST:PORT"), a.err());
    }
}
