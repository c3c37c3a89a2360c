package lockstep.nes.roms;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * Runs many ROMs in parallel (each console is independent) and hands the results back in
 * the order the entries were given, as soon as each one and all before it are done.
 */
public final class RomSuite implements AutoCloseable {
    private final RomRunner runner;
    private final ExecutorService pool;

    public RomSuite(RomRunner runner, int threads) {
        this.runner = runner;
        ThreadFactory daemon = r -> {
            Thread t = new Thread(r, "rom-runner");
            t.setDaemon(true);
            return t;
        };
        this.pool = Executors.newFixedThreadPool(Math.max(1, threads), daemon);
    }

    /** Threads to use by default: the available cores. */
    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** Starts every entry now; the futures complete as the runs finish. */
    public List<CompletableFuture<RomResult>> start(List<RomEntry> entries) {
        List<CompletableFuture<RomResult>> futures = new ArrayList<>(entries.size());
        for (RomEntry e : entries) {
            futures.add(CompletableFuture.supplyAsync(() -> runner.run(e), pool));
        }
        return futures;
    }

    /** Runs all entries and calls {@code each} for every result, in entry order. */
    public List<RomResult> runAll(List<RomEntry> entries, Consumer<RomResult> each) {
        List<RomResult> out = new ArrayList<>(entries.size());
        for (CompletableFuture<RomResult> f : start(entries)) {
            RomResult r = f.join();
            out.add(r);
            if (each != null) {
                each.accept(r);
            }
        }
        return out;
    }

    /**
     * Saves the last picture of a ROM that did not pass as PNG in {@code dir}; returns the
     * file, or null when there is no picture.
     */
    public static Path savePicture(RomResult r, Path dir) throws IOException {
        if (r.picture() == null) {
            return null;
        }
        Path file = dir.resolve(FramePng.fileName(r.rom(), ""));
        FramePng.write(r.picture(), file);
        return file;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
