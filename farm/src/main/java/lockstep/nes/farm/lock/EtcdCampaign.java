package lockstep.nes.farm.lock;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Election;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.election.CampaignResponse;
import io.etcd.jetcd.election.LeaderKey;
import io.etcd.jetcd.election.LeaderResponse;
import io.etcd.jetcd.election.NoLeaderException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Leadership through etcd's election API (jetcd's {@link Election}), for one candidate.
 *
 * <ul>
 *   <li>campaign: grant an etcd lease with the TTL and campaign on {@code lockstep/election/K}
 *       with it (etcd queues a key {@code lockstep/election/K/<lease>} holding the candidate's
 *       name; the candidate leads once every key created before it is gone). While it waits in
 *       line the candidate keeps its lease alive with one keep-alive per TTL/3, so a paused or
 *       cut-off candidate drops out of the line after its TTL. When the campaign answers, one
 *       keep-alive and a {@code leader} query confirm the lease still lives and its key leads
 *       (etcd answers a campaign once the earlier keys are gone, even if the candidate's own key
 *       expired meanwhile).</li>
 *   <li>renew: {@code leader} still names this leadership's key, then one keep-alive, never
 *       streamed in the background: a leader that stops renewing loses its lease, and with it
 *       the leadership, after the TTL.</li>
 *   <li>release: resign, then revoke the lease.</li>
 * </ul>
 * The leadership's token is its key's create revision, which grows from leader to leader while
 * etcd keeps its data; the farm's coordinator takes its fenced term from the store, not from it.
 * {@code observe} follows who leads, for {@link #observedLeader()}.
 */
final class EtcdCampaign implements Campaign {
    static final String PREFIX = "lockstep/election/";

    private final EtcdLockManager etcd;
    /** The leader keys this candidate won and holds, by token (resign needs the whole key). */
    private final Map<Long, LeaderKey> held = new ConcurrentHashMap<>();
    private volatile String observed;
    private volatile boolean observing;

    EtcdCampaign(EtcdLockManager etcd) {
        this.etcd = etcd;
    }

    /** The election API of the lock manager's client as it is now (it is built anew after a server lost its state). */
    private Election election() {
        return etcd.client().getElectionClient();
    }

    static ByteSequence name(String key) {
        return EtcdLockManager.bytes(PREFIX + key);
    }

    @Override
    public Optional<Lease> campaign(String key, String candidate, Duration ttl, BooleanSupplier giveUp)
            throws LockException {
        observe(key);
        long seconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
        long leaseId = etcd.await(etcd.client().getLeaseClient().grant(seconds), "grant a lease to campaign for " + key)
                .getID();
        LeaderKey won;
        try {
            won = waitInLine(key, leaseId, candidate, ttl, giveUp);
        } catch (LockException | RuntimeException e) {
            etcd.revokeQuietly(leaseId); // leaves the line: a later answer leads nothing
            throw e;
        }
        if (won == null) {
            etcd.revokeQuietly(leaseId);
            return Optional.empty();
        }
        long sent = System.nanoTime();
        KeyValue leader = leader(key);
        if (!etcd.keepAliveOnce(leaseId, "keep the campaign for " + key + " alive") || !leads(leader, won)) {
            etcd.revokeQuietly(leaseId);
            return Optional.empty();
        }
        held.put(won.getRevision(), won);
        return Optional.of(new Lease(key, candidate, won.getRevision(), ttl.toMillis(), sent + ttl.toNanos()));
    }

    /**
     * Campaigns and waits for the answer, one keep-alive of the candidate's lease every TTL/3;
     * null when the lease ran out while waiting or {@code giveUp} turned true.
     */
    private LeaderKey waitInLine(String key, long leaseId, String candidate, Duration ttl, BooleanSupplier giveUp)
            throws LockException {
        CompletableFuture<CampaignResponse> answer = election().campaign(name(key), leaseId,
                EtcdLockManager.bytes(candidate));
        long period = Math.max(1, ttl.toMillis() / 3);
        while (true) {
            try {
                return answer.get(period, TimeUnit.MILLISECONDS).getLeader();
            } catch (TimeoutException e) {
                if (giveUp.getAsBoolean()
                        || !etcd.keepAliveOnce(leaseId, "keep the campaign for " + key + " alive")) {
                    answer.cancel(true);
                    return null;
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                if (String.valueOf(cause.getMessage()).contains("authentication failed")) {
                    throw new LockRefusedException("etcd " + etcd.url() + ": the server refused the credentials (campaign for "
                            + key + ": " + cause.getMessage() + ")");
                }
                throw new LockException("etcd " + etcd.url() + ": campaign for " + key + " failed: " + cause.getMessage(),
                        cause);
            } catch (InterruptedException e) {
                answer.cancel(true);
                Thread.currentThread().interrupt();
                throw new LockException("etcd " + etcd.url() + ": campaign for " + key + " interrupted", e);
            }
        }
    }

    /** The current leader's key, or null when nobody leads. */
    private KeyValue leader(String key) throws LockException {
        try {
            LeaderResponse r = etcd.await(election().leader(name(key)), "ask who leads " + key);
            return r.getKv();
        } catch (LockException e) {
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                if (c instanceof NoLeaderException) {
                    return null;
                }
            }
            throw e;
        }
    }

    private static boolean leads(KeyValue leader, LeaderKey mine) {
        return leader != null && leader.getKey().equals(mine.getKey()) && leader.getCreateRevision() == mine.getRevision()
                && leader.getLease() == mine.getLease();
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        LeaderKey mine = held.get(lease.fencingToken());
        if (mine == null || !leads(leader(lease.key()), mine)
                || !etcd.keepAliveOnce(mine.getLease(), "keep the leadership of " + lease.key() + " alive")) {
            held.remove(lease.fencingToken());
            return Optional.empty();
        }
        return Optional.of(lease.renewedUntil(sent + lease.ttlMillis() * 1_000_000L));
    }

    @Override
    public void release(Lease lease) throws LockException {
        LeaderKey mine = held.remove(lease.fencingToken());
        if (mine != null) {
            try {
                etcd.await(election().resign(mine), "resign the leadership of " + lease.key());
            } finally {
                etcd.revokeQuietly(mine.getLease());
            }
        }
    }

    /** Follows the leader of {@code key} (again, after the stream ended, e.g. etcd restarted). */
    private void observe(String key) {
        if (observing) {
            return;
        }
        observing = true;
        election().observe(name(key), new Election.Listener() {
            @Override
            public void onNext(LeaderResponse r) {
                KeyValue kv = r.getKv();
                observed = kv == null ? null : kv.getValue().toString(StandardCharsets.UTF_8);
            }

            @Override
            public void onError(Throwable t) {
                observed = null;
                observing = false;
            }

            @Override
            public void onCompleted() {
                observing = false;
            }
        });
    }

    @Override
    public String observedLeader() {
        return observed;
    }

    @Override
    public String kind() {
        return etcd.kind();
    }
}
