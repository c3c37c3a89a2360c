package lockstep.nes.netplay;

import java.util.List;

/**
 * The outcome of one peer's session.
 *
 * @param hostInputs   the host's input for every frame played (the merged log, with {@link #joinerInputs})
 * @param rollbackNanos the time spent loading snapshots and re-simulating, all rollbacks together
 * @param interrupted  stopped on request before its last frame
 */
public record NetplayResult(String role, int frames, long rollbacks, int deepestRollback, long framesResimulated,
                            long rollbackNanos, List<DesyncReport> desyncs, String finalStateHash, double rttMillis,
                            int delay, int window, long foreignDatagrams, boolean interrupted,
                            int[] hostInputs, int[] joinerInputs) {

    /** The last line a command prints. */
    public String summary() {
        return String.format("netplay %s: %d frames, %d rollbacks, deepest %d, %d desyncs, state sha256 %s%s",
                role, frames, rollbacks, deepestRollback, desyncs.size(), finalStateHash,
                interrupted ? " (interrupted)" : "");
    }
}
