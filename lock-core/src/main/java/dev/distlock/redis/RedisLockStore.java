package dev.distlock.redis;

import dev.distlock.core.runtime.DaemonThreads;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.BatchRenewal;
import dev.distlock.core.spi.FenceRaising;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.PassingOn;
import dev.distlock.core.spi.PermitClaims;
import dev.distlock.core.spi.Renewal;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.WaitQueue;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadPoolExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock's atomic operations as Lua scripts on one Redis (standalone, Sentinel or one cluster slot). On a Lettuce
 * factory that shares its connection, the operations of a hold's life run on Lettuce's own asynchronous API also for
 * a blocking caller, who waits for the reply: no Spring Data connection is made per call. Elsewhere, and for an
 * operator's reads, they run on a Spring Data connection.
 */
final class RedisLockStore implements LockStore, WaitQueue, PassingOn, BatchRenewal, FenceRaising, PermitClaims {

    /** The most writes that wait for replicas' acknowledgement at once for non-blocking callers. */
    private static final int ACKNOWLEDGING_THREADS = PipelineConnections.MAX_IDLE;

    private final RedisConnectionFactory redis;
    private final ScriptArguments arguments;
    private final ScriptReplies replies;
    private final GrantInbox inbox;
    private final ReplicaCount replicas;
    private final AcknowledgedWrites acknowledged;
    private final boolean cluster;
    /** The operations on Lettuce's asynchronous API, when the factory shares one connection; else {@code null}. */
    private final RedisAsyncLockStore direct;
    /** What {@link #async()} gives: {@link #direct}, or with replica acknowledgement a {@link ReplicatedAsyncStore}. */
    private final AsyncLockStore async;
    /** Where non-blocking callers' acknowledged writes wait; {@code null} without replica acknowledgement. */
    private final ThreadPoolExecutor acknowledging;
    private final StoreCapabilities capabilities;

    RedisLockStore(RedisConnectionFactory redis, RedisKeys keys, GrantInbox inbox, long fenceRetentionMillis) {
        this(redis, keys, inbox, fenceRetentionMillis, new ReplicaCount(ReplicaAcks.NONE, redis));
    }

    RedisLockStore(RedisConnectionFactory redis, RedisKeys keys, GrantInbox inbox, long fenceRetentionMillis,
            ReplicaCount replicas) {
        this.redis = redis;
        this.arguments = new ScriptArguments(keys, fenceRetentionMillis, inbox.channel());
        this.replies = new ScriptReplies(keys);
        this.inbox = inbox;
        this.replicas = replicas;
        this.acknowledged = new AcknowledgedWrites(redis, replicas, arguments);
        this.cluster = ClusterDetection.isCluster(redis);
        // the scripts are read from the jar now, not on the first lock's thread (which may be one that must not block)
        LockScripts.load();
        AsyncScripts scripts = AsyncScripts.of(redis);
        this.direct = scripts == null ? null
                : new RedisAsyncLockStore(scripts, arguments, replies, new RenewalCalls(keys, cluster));
        boolean acknowledges = replicas.acks() != ReplicaAcks.NONE;
        this.acknowledging = direct != null && acknowledges ? acknowledgingThreads() : null;
        this.async = acknowledging == null ? direct
                : new ReplicatedAsyncStore(direct, AsyncLockStore.on(this, acknowledging), replicas);
        this.capabilities = capabilities(new OperatorCalls(redis, arguments, replies));
    }

    /**
     * A queue, hand-off notices, fencing tokens raised, reads, forced releases, announcements and Redis's failures
     * told apart ({@link RedisFailures#classify}); on a Lettuce factory that shares its connection (Boot's default),
     * the operations sent on Lettuce's asynchronous API (no thread waits for a reply, except for a write that
     * replicas must acknowledge: its {@code WAIT} needs a connection of its own, and waits on a thread of the
     * store's), and a release passed on to the next local caller in one call. Renewals go in batches, one script per
     * batch, on one server unless a fixed number of replicas must acknowledge each renewal (each then waits for
     * them); on a cluster only through Lettuce's asynchronous API, which sends a call per slot.
     */
    private StoreCapabilities capabilities(OperatorCalls operator) {
        return StoreCapabilities.builder().queue(this).handOffs(inbox).async(async)
                .passingOn(direct != null ? this : null)
                .batchRenewal(!replicas.acks().fixed() && !cluster ? this : null)
                .fenceRaising(this).reads(operator).forcedRelease(operator).announcements(operator).permits(this)
                .failures(RedisFailures::classify).build();
    }

    @Override
    public StoreCapabilities capabilities() {
        return capabilities;
    }

    private static ThreadPoolExecutor acknowledgingThreads() {
        return DaemonThreads.pool("distlock-acknowledge", ACKNOWLEDGING_THREADS, 30);
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        int required = replicas.required();
        if (direct != null && required == 0) {
            return NativeCalls.awaited(direct.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
        }
        return acquired(LockScripts.ACQUIRE, name, token,
                arguments.acquire(name, token, leaseMillis, queue, waiterTimeoutMillis), required);
    }

    @Override
    public AcquireResult takePermits(String name, String token, int permits, int limit, long leaseMillis,
            boolean queue, long waiterTimeoutMillis) {
        int required = replicas.required();
        if (direct != null && required == 0) {
            return NativeCalls.awaited(direct.takePermits(name, token, permits, limit, leaseMillis, queue,
                    waiterTimeoutMillis));
        }
        return acquired(LockScripts.TAKE_PERMITS, name, token,
                arguments.takePermits(name, token, permits, limit, leaseMillis, queue, waiterTimeoutMillis), required);
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        int required = replicas.required();
        if (direct != null && required == 0) {
            return NativeCalls.awaited(direct.leaveQueue(name, token, leaseMillis));
        }
        return acquired(LockScripts.LEAVE, name, token, arguments.leave(name, token, leaseMillis), required);
    }

    /** Runs an acquiring script; with replicas to wait for, see {@link AcknowledgedWrites#acquire}. */
    private AcquireResult acquired(LockScripts.Script script, String name, String token, byte[][] keysAndArgs,
            int required) {
        if (required == 0) {
            return ScriptReplies.acquireResult(script.run(redis, keysAndArgs));
        }
        return acknowledged.acquire(script, name, token, keysAndArgs, required);
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        if (direct != null) {
            return NativeCalls.awaited(direct.release(name, token, fencingToken));
        }
        return replies.released(LockScripts.RELEASE.run(redis, arguments.release(name, token, fencingToken)));
    }

    /** Like a release, never acknowledged by replicas: it only gives permits up. */
    @Override
    public boolean keepPermits(String name, String token, int permits) {
        if (direct != null) {
            return NativeCalls.awaited(direct.keepPermits(name, token, permits));
        }
        return replies.released(LockScripts.KEEP_PERMITS.run(redis, arguments.keepPermits(name, token, permits)));
    }

    /** In one call while no replica must acknowledge the next token's try (else its release, then its try). */
    @Override
    public PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis,
            boolean queue, long waiterTimeoutMillis) {
        if (direct != null && replicas.required() == 0) {
            return NativeCalls.awaited(direct.passOn(name, token, fencingToken, next, leaseMillis, queue,
                    waiterTimeoutMillis));
        }
        boolean released = release(name, token, fencingToken);
        return new PassOn(released, tryAcquire(name, next, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public void abandon(String name, String token) {
        if (direct != null) {
            NativeCalls.awaited(direct.abandon(name, token));
            return;
        }
        replies.released(LockScripts.ABANDON.run(redis, arguments.abandon(name, token)));
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return setLease(name, token, leaseMillis, false);
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return setLease(name, token, leaseMillis, true);
    }

    private boolean setLease(String name, String token, long leaseMillis, boolean onlyLonger) {
        int required = replicas.required();
        if (direct != null && required == 0) {
            return NativeCalls.awaited(onlyLonger ? direct.renew(name, token, leaseMillis)
                    : direct.extend(name, token, leaseMillis));
        }
        byte[][] keysAndArgs = arguments.lease(name, token, leaseMillis, onlyLonger);
        if (required == 0) {
            return LockScripts.EXTEND.<Long>run(redis, keysAndArgs) == 1L;
        }
        return acknowledged.setLease(name, keysAndArgs, required);
    }

    /** One script per batch on a single server, per hash slot on a cluster; one by one while replicas acknowledge. */
    @Override
    public boolean[] renewAll(List<Renewal> batch) {
        int required = replicas.required();
        if (direct != null && required == 0) {
            List<CompletionStage<Boolean>> answers = direct.renewAll(batch);
            boolean[] owned = new boolean[answers.size()];
            for (int i = 0; i < owned.length; i++) {
                owned[i] = NativeCalls.awaited(answers.get(i));
            }
            return owned;
        }
        if (required > 0) {
            boolean[] owned = new boolean[batch.size()];
            for (int i = 0; i < owned.length; i++) {
                owned[i] = renew(batch.get(i).name(), batch.get(i).token(), batch.get(i).leaseMillis());
            }
            return owned;
        }
        return ScriptReplies.owned(LockScripts.RENEW_ALL.runWithKeys(redis, batch.size(), arguments.renewAll(batch)));
    }

    @Override
    public boolean raiseFence(String name, String token, long fencingToken) {
        return LockScripts.RAISE.<Long>run(redis, arguments.raise(name, token, fencingToken)) == 1L;
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        if (async != null) {
            return NativeCalls.awaited(async.remainingLeaseMillis(name, token));
        }
        return ScriptReplies.leaseLeft(LockScripts.REMAINING.<Long>run(redis, arguments.remaining(name, token)));
    }

    @Override
    public void close() {
        inbox.close();
        acknowledged.close();
        replicas.close();
        if (acknowledging != null) {
            acknowledging.shutdown();
        }
    }
}
