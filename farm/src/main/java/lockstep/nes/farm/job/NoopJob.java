package lockstep.nes.farm.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A job that does nothing for {@code ms} milliseconds, in 10 ms "frames" with a kill-switch check
 * between them; {@code {"fail": true}} makes every attempt fail, and {@code {"halt": true}} ends the
 * worker's process at once (a job that crashes its worker). Not offered by {@code farm submit}:
 * it measures the farm's own overhead (claim, lease, commit) and drives its tests.
 */
public final class NoopJob implements JobRunner {
    public static final String KIND = "noop";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public JobResult run(JobContext ctx) throws JobFailure {
        JsonNode spec;
        try {
            spec = JSON.readTree(ctx.job().spec());
        } catch (Exception e) {
            throw new JobFailure("bad noop spec: " + e.getMessage());
        }
        long ms = spec.path("ms").asLong(0);
        long end = System.nanoTime() + ms * 1_000_000L;
        ctx.frameBoundary();
        while (System.nanoTime() - end < 0) {
            try {
                Thread.sleep(Math.min(10, Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JobFailure("interrupted");
            }
            ctx.frameBoundary();
        }
        if (spec.path("halt").asBoolean(false)) {
            Runtime.getRuntime().halt(137);
        }
        if (spec.path("fail").asBoolean(false)) {
            throw new JobFailure("noop job told to fail");
        }
        return new JobResult("ok", "{\"status\":\"ok\",\"ms\":" + ms + "}");
    }
}
