package lockstep.nes.core.state;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;

/**
 * Measures the per-cycle digest against the engine's own time per cycle, and snapshot save and
 * load (a probe, not a test: timings on a shared machine are not assertions). Run with
 * {@code java -cp ppu/target/classes:emulator-core/target/classes:emulator-core/target/test-classes
 * lockstep.nes.core.state.DigestCost}.
 */
public final class DigestCost {
    public static void main(String[] args) throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        Snapshots snaps = new Snapshots(c);
        for (int i = 0; i < 30; i++) {
            c.runFrame();
        }
        byte[] data = snaps.save();
        CycleDigest d = new CycleDigest(c);
        long sink = 0;
        int n = 3_000_000;
        long engine = Long.MAX_VALUE;
        long both = Long.MAX_VALUE;
        for (int round = 0; round < 4; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                c.runCycle();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                c.runCycle();
                sink += d.digest();
            }
            long t2 = System.nanoTime();
            engine = Math.min(engine, t1 - t0);
            both = Math.min(both, t2 - t1);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += d.digest();
        }
        System.out.printf("digest alone %.1f ns, %d entries%n", (System.nanoTime() - t0) / (double) n,
                Describer.describe(c).size());
        double e = engine / (double) n;
        double b = both / (double) n;
        System.out.printf("engine %.1f ns/cycle, engine+digest %.1f ns/cycle, digest %.1f ns (%.0f%%) [%d]%n",
                e, b, b - e, 100 * (b - e) / e, sink & 1);
        int m = 20_000;
        long save = Long.MAX_VALUE;
        long load = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long s0 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                snaps.saveToBuffer();
            }
            long s1 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                snaps.load(data);
            }
            long s2 = System.nanoTime();
            save = Math.min(save, s1 - s0);
            load = Math.min(load, s2 - s1);
        }
        System.out.printf("snapshot (%d bytes): save %.2f us, load %.2f us%n", data.length, save / 1e3 / m, load / 1e3 / m);
    }
}
