package dev.distlock.redis;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.Renewal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    private final ScriptReplies replies;
    private final RenewalCalls renewals;

    RedisAsyncLockStore(AsyncScripts scripts, ScriptArguments arguments, ScriptReplies replies,
            RenewalCalls renewals) {
        this.scripts = scripts;
        this.arguments = arguments;
        this.replies = replies;
        this.renewals = renewals;
    }

    @Override
    public CompletionStage<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return read(scripts.<List<?>>run(LockScripts.ACQUIRE,
                arguments.acquire(name, token, leaseMillis, queue, waiterTimeoutMillis)), ScriptReplies::acquireResult);
    }

    @Override
    public CompletionStage<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
        return read(scripts.<List<?>>run(LockScripts.LEAVE, arguments.leave(name, token, leaseMillis)),
                ScriptReplies::acquireResult);
    }

    @Override
    public CompletionStage<Boolean> release(String name, String token) {
        return read(scripts.<List<?>>run(LockScripts.RELEASE, arguments.release(name, token)), replies::released);
    }

    @Override
    public CompletionStage<PassOn> passOn(String name, String token, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return read(scripts.<List<?>>run(LockScripts.PASS_ON,
                arguments.passOn(name, token, next, leaseMillis, queue, waiterTimeoutMillis)), replies::passedOn);
    }

    @Override
    public CompletionStage<Void> abandon(String name, String token) {
        return read(scripts.<List<?>>run(LockScripts.ABANDON, arguments.release(name, token)), reply -> {
            replies.released(reply);
            return null;
        });
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
        return renewals.send(batch, part -> read(scripts.<List<?>>runWithKeys(LockScripts.RENEW_ALL, part.size(),
                arguments.renewAll(part)), ScriptReplies::owned));
    }

    @Override
    public CompletionStage<Long> remainingLeaseMillis(String name, String token) {
        return read(scripts.<Long>run(LockScripts.REMAINING, arguments.remaining(name, token)),
                ScriptReplies::leaseLeft);
    }

    private CompletionStage<Boolean> setLease(byte[][] keysAndArgs) {
        return read(scripts.<Long>run(LockScripts.EXTEND, keysAndArgs), reply -> reply == 1L);
    }

    /**
     * The call's reply read by {@code reading}. Cancelling the result cancels the call itself, which is then never
     * sent if it still waits for a connection (how Redlock's interrupted node calls stop).
     */
    private static <T, R> CompletionStage<R> read(CompletionStage<T> reply, Function<? super T, ? extends R> reading) {
        CompletableFuture<T> call = reply.toCompletableFuture();
        CompletableFuture<R> read = call.thenApply(reading);
        read.whenComplete((value, failure) -> {
            if (read.isCancelled()) {
                call.cancel(false);
            }
        });
        return read;
    }
}
