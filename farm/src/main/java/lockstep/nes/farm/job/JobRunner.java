package lockstep.nes.farm.job;

/** Runs one kind of job. */
public interface JobRunner {
    /**
     * Runs the job. Checks {@link JobContext#frameBoundary()} at every frame boundary, so a
     * fired kill switch stops it (KilledException) before anything is written.
     *
     * @throws JobFailure when this attempt could not produce a result (it will be retried)
     */
    JobResult run(JobContext ctx) throws JobFailure;
}
