package lockstep.nes.verifier;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.Console;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;

/**
 * Where outputs go while the divergence flag is up: results as JSON lines
 * ({@code dead-letter.jsonl}) and frames as PNG, instead of the normal sinks. Every write is
 * fenced by the writer's epoch, so a late write from before a rollback is refused.
 */
public final class DeadLetter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final EpochFence fence;
    private final Palette palette = Palette.ntsc();

    public DeadLetter(Path dir, EpochFence fence) {
        this.dir = dir;
        this.fence = fence;
    }

    public Path dir() {
        return dir;
    }

    /** Records a divergence: the report line and both engines' current frames. */
    public boolean divergence(long epoch, DivergenceReport report, Console a, Console b) {
        return divergence(epoch, report, a.ppu().frame(), b.ppu().frame());
    }

    /** Records a divergence with both engines' last pictures (9-bit PPU values; processes mode). */
    public boolean divergence(long epoch, DivergenceReport report, short[] pictureA, short[] pictureB) {
        return fence.write(epoch, () -> {
            try {
                Files.createDirectories(dir);
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("type", "divergence");
                line.put("epoch", epoch);
                line.put("report", report);
                appendLine(JSON.writeValueAsString(line));
                AtomicFile.write(dir.resolve(String.format("frame-%d-cycle-%d-A.png", report.frame(), report.cycle())),
                        FrameImage.png(pictureA, palette));
                AtomicFile.write(dir.resolve(String.format("frame-%d-cycle-%d-B.png", report.frame(), report.cycle())),
                        FrameImage.png(pictureB, palette));
            } catch (IOException e) {
                throw new UncheckedIOException("dead-letter write to " + dir + " failed: " + e.getMessage(), e);
            }
        });
    }

    /** Appends one result record written in {@code epoch}. */
    public boolean result(long epoch, Map<String, Object> record) {
        return fence.write(epoch, () -> {
            try {
                Files.createDirectories(dir);
                Map<String, Object> line = new LinkedHashMap<>(record);
                line.put("epoch", epoch);
                appendLine(JSON.writeValueAsString(line));
            } catch (IOException e) {
                throw new UncheckedIOException("dead-letter write to " + dir + " failed: " + e.getMessage(), e);
            }
        });
    }

    private void appendLine(String json) throws IOException {
        Files.writeString(dir.resolve("dead-letter.jsonl"), json + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
