package lockstep.nes.farm.job;

/**
 * What a job produced, to be committed with the attempt's fencing token.
 *
 * @param status short outcome for the report (pass, fail, timeout, error, diverged, ok)
 * @param json   the full result as JSON
 */
public record JobResult(String status, String json) {
}
