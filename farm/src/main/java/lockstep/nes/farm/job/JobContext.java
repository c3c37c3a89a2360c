package lockstep.nes.farm.job;

import java.sql.SQLException;
import lockstep.nes.farm.lock.KillSwitch;
import lockstep.nes.farm.store.Store;

/**
 * What a running job sees: its row, its attempt's fencing token, the kill switch to check at
 * every frame boundary, and fenced checkpoints.
 */
public final class JobContext {
    private final Store store;
    private final Store.Job job;
    private final long token;
    private final String owner;
    private final KillSwitch killSwitch;

    /** @param owner the worker that holds the claim (the fence checks it with the token) */
    public JobContext(Store store, Store.Job job, long token, String owner, KillSwitch killSwitch) {
        this.store = store;
        this.job = job;
        this.token = token;
        this.owner = owner;
        this.killSwitch = killSwitch;
    }

    public Store.Job job() {
        return job;
    }

    public long token() {
        return token;
    }

    public KillSwitch killSwitch() {
        return killSwitch;
    }

    /** At a frame boundary: stops the job (KilledException) once the kill switch has fired. */
    public void frameBoundary() {
        killSwitch.throwIfFired();
    }

    /** The job's last checkpoint (from any earlier attempt), or null. */
    public Store.Checkpoint lastCheckpoint() throws JobFailure {
        try {
            return store.checkpoint(job.id());
        } catch (SQLException e) {
            throw new JobFailure("cannot read the checkpoint of job " + job.id() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stores a checkpoint with this attempt's token (after checking the kill switch).
     *
     * @throws StaleTokenException when the store rejected the token: another attempt took over
     * @throws lockstep.nes.farm.lock.KilledException when the store could not be reached (not a failure of the job)
     */
    public void checkpoint(int frame, byte[] data) throws JobFailure {
        killSwitch.throwIfFired();
        boolean ok;
        try {
            ok = store.claims().saveCheckpoint(job.id(), token, owner, frame, data);
        } catch (SQLException e) {
            // the store is unavailable (restarting, say), which is not the job's failure: the
            // attempt stops with nothing more written and the job is taken over from its last checkpoint
            throw new lockstep.nes.farm.lock.KilledException("cannot store the checkpoint of job " + job.id()
                    + " (store unavailable: " + e.getMessage() + ")");
        }
        if (!ok) {
            throw new StaleTokenException("checkpoint of job " + job.id() + " at frame " + frame + " rejected: token "
                    + token + " is stale");
        }
    }
}
