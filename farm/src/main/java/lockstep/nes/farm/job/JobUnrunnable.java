package lockstep.nes.farm.job;

/**
 * This worker cannot run the job (it lacks the job's kind, or the files the job names are not on
 * this machine): not the job's failure. The claim is given back uncharged, after a short delay,
 * so a misconfigured worker cannot dead-letter other workers' jobs.
 */
public class JobUnrunnable extends JobFailure {
    private static final long serialVersionUID = 1L;

    public JobUnrunnable(String message) {
        super(message);
    }
}
