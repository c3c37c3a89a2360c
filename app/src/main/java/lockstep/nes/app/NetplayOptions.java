package lockstep.nes.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.netplay.NetplayException;
import lockstep.nes.netplay.NetplayMetrics;
import lockstep.nes.netplay.NetplayPeer;
import lockstep.nes.netplay.NetplayResult;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.Faults;
import lockstep.nes.verifier.MetricsServer;
import lockstep.nes.verifier.host.BuildId;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What {@code netplay host} and {@code netplay join} share: the inputs, the run, its outputs. */
final class NetplayOptions {
    @Mixin
    RomEntryOption archive = new RomEntryOption();

    @Mixin
    RegionOption region = new RegionOption();

    @Option(names = "--movie", paramLabel = "FILE.fm2", description = "this player's own input: the movie's first "
            + "controller column (and its reset/power commands); without it, no buttons")
    Path movie;

    @Option(names = "--frames", paramLabel = "N", description = "frames to play (default: ${DEFAULT-VALUE})")
    int frames = 600;

    @Option(names = "--fps", paramLabel = "F", description = "frames per second (default: the console's, 60.1 NTSC "
            + "or 50.0 PAL; 0: as fast as the two peers allow)")
    Double fps;

    @Option(names = "--inject", paramLabel = "SPEC", description = "fault planted into this peer's engine, as verify "
            + "takes it (repeatable; engine A is the host, B the joiner): ram-bitflip@CYCLE:B[:ADDR:BIT], "
            + "vram-bitflip@..., reg@CYCLE:B:cpu.a=VALUE")
    List<String> inject = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE.json", description = "write the session's report (rollbacks, "
            + "desyncs located to their cycle and fields) as JSON")
    Path report;

    @Option(names = "--metrics-port", paramLabel = "PORT", description = "serve /metrics on 127.0.0.1:PORT")
    Integer metricsPort;

    @Option(names = "--wait", paramLabel = "SECONDS", description = "how long the host waits for a joiner, and a "
            + "joiner for the host (default: ${DEFAULT-VALUE})")
    long waitSeconds = 60;

    @Option(names = "--peer-timeout", paramLabel = "SECONDS", description = "a peer silent this long mid-session is "
            + "gone (default: ${DEFAULT-VALUE})")
    long peerTimeoutSeconds = 5;

    /** Makes the peer once the ROM and options are known. */
    interface PeerFactory {
        NetplayPeer make(Cartridge cart, NetplayPeer.Options o) throws NetplayException, BadInput;
    }

    /** Runs one peer ({@code engine} 0 the host, 1 the joiner) and returns the exit code. */
    int run(String role, Path rom, int engine, PeerFactory factory) throws BadInput, IOException {
        if (frames < 1) {
            throw new BadInput("--frames " + frames + " is out of range (at least 1)");
        }
        if (fps != null && (fps < 0 || fps > 10_000)) {
            throw new BadInput("--fps " + fps + " is out of range (0-10000)");
        }
        if (waitSeconds < 1 || peerTimeoutSeconds < 1) {
            throw new BadInput("--wait and --peer-timeout are at least 1 second");
        }
        Ports.check(metricsPort, "--metrics-port");
        Outputs.check(report, "--report");
        Movie m = movie != null ? RunInputs.movie(movie) : null;
        Cartridge cart = RunInputs.cartridge(rom, archive.entry, m, region);
        List<FaultSpec> faults = new ArrayList<>();
        try {
            for (String s : inject) {
                faults.add(FaultSpec.parse(s));
            }
            Faults.check(faults, RunInputs.console(cart));
        } catch (IllegalArgumentException e) {
            throw new BadInput(e.getMessage());
        }
        NetplayPeer.Options o = new NetplayPeer.Options();
        o.frames = frames;
        o.fps = fps != null ? fps : cart.region().frameRate();
        o.faults = faults;
        o.input = input(m);
        o.buildId = BuildId.of("lockstep-nes/" + version());
        o.handshakeMillis = waitSeconds * 1000;
        o.peerTimeoutMillis = peerTimeoutSeconds * 1000;
        o.log = System.out;
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MetricsServer server = null;
        try (Interrupt signal = Interrupt.watch()) {
            o.stop = Interrupt::requested;
            if (metricsPort != null) {
                try {
                    server = new MetricsServer(metricsPort, registry, null);
                } catch (IOException e) {
                    throw new BadInput("cannot serve metrics on 127.0.0.1:" + metricsPort + " (" + e.getMessage() + ")");
                }
            }
            NetplayResult r;
            o.metrics = new NetplayMetrics(registry, role, 30);
            try (NetplayPeer peer = factory.make(cart, o)) {
                r = peer.run();
            } catch (NetplayException e) {
                System.err.println("error: netplay " + role + ": " + e.getMessage());
                return ExitCodes.NETWORK;
            } catch (InterruptedException e) {
                System.err.println("netplay " + role + ": interrupted before the session began");
                return ExitCodes.SIGINT;
            } catch (IllegalArgumentException e) {
                throw new BadInput(e.getMessage()); // an --inject of the other peer's engine
            }
            if (report != null) {
                Outputs.write(report, json(r), "--report");
            }
            System.out.println(r.summary());
            if (r.interrupted()) {
                return ExitCodes.SIGINT;
            }
            return r.desyncs().isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    static String version() {
        String v = NetplayOptions.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    /** Movie frame n's first controller column and its reset/power command; past its end, nothing. */
    static java.util.function.IntUnaryOperator input(Movie m) {
        if (m == null) {
            return f -> 0;
        }
        List<Movie.Frame> frames = m.frames();
        return f -> {
            if (f < 0 || f >= frames.size()) {
                return 0;
            }
            Movie.Frame fr = frames.get(f);
            return fr.port0() & 0xFF | (fr.reset() ? 0x100 : 0) | (fr.power() ? 0x200 : 0);
        };
    }

    private static byte[] json(NetplayResult r) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("role", r.role());
        m.put("frames", r.frames());
        m.put("rollbacks", r.rollbacks());
        m.put("deepestRollback", r.deepestRollback());
        m.put("framesResimulated", r.framesResimulated());
        m.put("rollbackMillis", r.rollbackNanos() / 1e6);
        m.put("meanRollbackMillis", r.rollbacks() == 0 ? 0 : r.rollbackNanos() / 1e6 / r.rollbacks());
        m.put("rttMillis", r.rttMillis());
        m.put("delay", r.delay());
        m.put("window", r.window());
        m.put("desyncs", r.desyncs());
        m.put("finalStateHash", r.finalStateHash());
        m.put("foreignDatagrams", r.foreignDatagrams());
        m.put("interrupted", r.interrupted());
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(m);
    }
}
