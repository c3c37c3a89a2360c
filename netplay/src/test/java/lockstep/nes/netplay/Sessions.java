package lockstep.nes.netplay;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.snapshot.Snapshots;

/** Runs a host and a joiner in threads of this JVM, with a {@link Conditioner} between them. */
final class Sessions {
    private Sessions() {
    }

    record Pair(NetplayResult host, NetplayResult joiner) {
    }

    /**
     * A player's made-up input, seeded: buttons held for 3 to 24 frames, then others; the host
     * also presses reset once, at frame 1,000.
     */
    static IntUnaryOperator player(long seed, boolean reset) {
        return f -> {
            if (f < 0) {
                return 0;
            }
            if (reset && f == 1000) {
                return InputLog.RESET;
            }
            long x = seed * 0x9E3779B97F4A7C15L;
            int segment = 0;
            int start = 0;
            while (true) {
                long h = mix(x + segment);
                int len = 3 + (int) Long.remainderUnsigned(h, 22);
                if (f < start + len) {
                    return (int) ((h >>> 32) & 0xFF);
                }
                start += len;
                segment++;
            }
        };
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static Pair run(Cartridge cart, Conditioner.Setting setting, NetplayPeer.Options hostOptions,
                    NetplayPeer.Options joinOptions, long seed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (NetplayPeer host = NetplayPeer.host(cart, 0, hostOptions);
             Conditioner net = new Conditioner(setting, host.port(), seed)) {
            Future<NetplayResult> h = pool.submit(host::run);
            try (NetplayPeer join = NetplayPeer.join(cart,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), net.port()), joinOptions)) {
                Future<NetplayResult> j = pool.submit(join::run);
                return new Pair(h.get(120, TimeUnit.SECONDS), j.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The state hash of a fresh engine fed the merged input log, frame by frame: the ground truth. */
    static String replay(Cartridge cart, int[] host, int[] joiner, int frames) throws Exception {
        Console c = Console.create(cart);
        for (int f = 0; f < frames; f++) {
            int h = host[f];
            int j = joiner[f];
            if (((h | j) & InputLog.POWER) != 0) {
                c.power();
            } else if (((h | j) & InputLog.RESET) != 0) {
                c.reset();
            }
            c.setButtons(0, h & InputLog.BUTTONS);
            c.setButtons(1, j & InputLog.BUTTONS);
            c.runFrame();
        }
        return new Snapshots(c).stateHash();
    }

    static NetplayPeer.Options options(int frames, IntUnaryOperator input, List<lockstep.nes.verifier.FaultSpec> faults) {
        NetplayPeer.Options o = new NetplayPeer.Options();
        o.frames = frames;
        o.input = input;
        o.faults = faults;
        o.buildId = "test-build";
        return o;
    }
}
