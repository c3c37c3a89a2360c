package lockstep.nes.farm;

import java.sql.SQLException;
import lockstep.nes.farm.store.Store;

/** Test claims made by hand, as a second worker would. */
final class Claims {
    private Claims() {
    }

    /**
     * Lets the job's lease lapse in the store now (as if its holder had stopped renewing) and
     * claims it; returns the new token.
     */
    static long takeOver(Store store, long jobId, String owner) throws SQLException, InterruptedException {
        try (var c = store.db().connection(); var s = c.createStatement()) {
            s.executeUpdate("UPDATE jobs SET lease_until_ms = 0 WHERE job_id = " + jobId);
        }
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() - end < 0) {
            Store.Job j = store.claims().claim(jobId, owner, 60_000, 100);
            if (j != null) {
                return j.claimToken();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("job " + jobId + " could not be taken over within 10 s");
    }
}
