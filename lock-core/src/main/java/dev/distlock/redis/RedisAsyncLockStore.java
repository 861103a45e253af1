package dev.distlock.redis;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.Renewal;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * {@link RedisLockStore}'s operations on Lettuce's asynchronous API ({@link AsyncScripts}): the same scripts, keys
 * ({@link ScriptArguments}) and replies ({@link ScriptReplies}), with no thread waiting for Redis. The stages
 * complete on Lettuce's event loop; the engine moves whatever runs after them to its own threads.
 */
final class RedisAsyncLockStore implements AsyncLockStore {

    private final AsyncScripts scripts;
    private final ScriptArguments arguments;
    private final RenewalCalls renewals;
    /** The readings of the replies that need a {@link ScriptReplies}, made once rather than per call. */
    private final Function<List<?>, Boolean> released;
    private final Function<List<?>, PassOn> passedOn;

    RedisAsyncLockStore(AsyncScripts scripts, ScriptArguments arguments, ScriptReplies replies,
            RenewalCalls renewals) {
        this.scripts = scripts;
        this.arguments = arguments;
        this.renewals = renewals;
        this.released = replies::released;
        this.passedOn = replies::passedOn;
    }

    @Override
    public CompletionStage<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return scripts.run(LockScripts.ACQUIRE, ScriptReplies::acquireResult,
                arguments.acquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletionStage<AcquireResult> takePermits(String name, String token, int permits, int limit,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return scripts.run(LockScripts.TAKE_PERMITS, ScriptReplies::acquireResult,
                arguments.takePermits(name, token, permits, limit, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletionStage<Boolean> keepPermits(String name, String token, int permits) {
        return scripts.run(LockScripts.KEEP_PERMITS, released, arguments.keepPermits(name, token, permits));
    }

    @Override
    public CompletionStage<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
        return scripts.run(LockScripts.LEAVE, ScriptReplies::acquireResult, arguments.leave(name, token, leaseMillis));
    }

    @Override
    public CompletionStage<Boolean> release(String name, String token, long fencingToken) {
        return scripts.run(LockScripts.RELEASE, released, arguments.release(name, token, fencingToken));
    }

    @Override
    public CompletionStage<PassOn> passOn(String name, String token, long fencingToken, String next,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return scripts.run(LockScripts.PASS_ON, passedOn,
                arguments.passOn(name, token, fencingToken, next, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletionStage<Void> abandon(String name, String token) {
        return scripts.<List<?>, Void>run(LockScripts.ABANDON, reply -> {
            released.apply(reply);
            return null;
        }, arguments.abandon(name, token));
    }

    @Override
    public CompletionStage<Boolean> extend(String name, String token, long leaseMillis) {
        return setLease(arguments.lease(name, token, leaseMillis, false));
    }

    @Override
    public CompletionStage<Boolean> renew(String name, String token, long leaseMillis) {
        return setLease(arguments.lease(name, token, leaseMillis, true));
    }

    /** One script per batch on a single server, per hash slot on a cluster. */
    @Override
    public List<CompletionStage<Boolean>> renewAll(List<Renewal> batch) {
        return renewals.send(batch, part -> scripts.runWithKeys(LockScripts.RENEW_ALL, part.size(),
                ScriptReplies::owned, arguments.renewAll(part)));
    }

    @Override
    public CompletionStage<Long> remainingLeaseMillis(String name, String token) {
        return scripts.run(LockScripts.REMAINING, ScriptReplies::leaseLeft, arguments.remaining(name, token));
    }

    private CompletionStage<Boolean> setLease(byte[][] keysAndArgs) {
        return scripts.<Long, Boolean>run(LockScripts.EXTEND, reply -> reply == 1L, keysAndArgs);
    }
}
