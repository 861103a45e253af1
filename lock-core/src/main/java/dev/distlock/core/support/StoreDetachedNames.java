package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/** The hold of a lock on several names that no thread owns ({@link StoreNamesLock}): one hold per name, together. */
final class StoreDetachedNames implements DetachedLock {

    private final String name;
    /** In the names' canonical order. */
    private final List<DetachedLock> holds;

    StoreDetachedNames(String name, List<DetachedLock> holds) {
        this.name = name;
        this.holds = holds;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Not one token: each name has its own ({@link #fencingTokens()}).
     *
     * @throws IllegalStateException always
     */
    @Override
    public long fencingToken() {
        throw StoreNamesLock.noSingleToken(name);
    }

    @Override
    public Map<String, Long> fencingTokens() {
        return StoreNamesLock.tokens(holds, DetachedLock::name, DetachedLock::fencingToken);
    }

    /** Whether every name is still held. */
    @Override
    public boolean isHeld() {
        return holds.stream().allMatch(DetachedLock::isHeld);
    }

    @Override
    public void unlock() {
        StoreNamesLock.eachInReverse(holds, DetachedLock::unlock);
    }

    @Override
    public void unlockAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        StoreNamesLock.eachInReverse(holds, hold -> hold.unlockAfter(delay));
    }

    @Override
    public void extend(Duration lease) {
        holds.forEach(hold -> hold.extend(lease));
    }

    @Override
    public CompletionStage<Void> unlockAsync() {
        return all(DetachedLock::unlockAsync);
    }

    @Override
    public CompletionStage<Void> unlockAfterAsync(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        return all(hold -> hold.unlockAfterAsync(delay));
    }

    @Override
    public CompletionStage<Void> extendAsync(Duration lease) {
        return all(hold -> hold.extendAsync(lease));
    }

    /** The shortest of the names' remaining leases. */
    @Override
    public CompletionStage<Duration> remainingLeaseAsync() {
        List<CompletableFuture<Duration>> each = new ArrayList<>(holds.size());
        holds.forEach(hold -> each.add(hold.remainingLeaseAsync().toCompletableFuture()));
        return failingUnwrapped(CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenApply(done -> each
                .stream().map(CompletableFuture::join).min(Duration::compareTo).orElseThrow()));
    }

    @Override
    public Duration remainingLease() {
        return holds.stream().map(DetachedLock::remainingLease).min(Duration::compareTo).orElseThrow();
    }

    @Override
    public void verifyHeld() {
        holds.forEach(DetachedLock::verifyHeld);
    }

    @Override
    public CompletionStage<Void> verifyHeldAsync() {
        return all(DetachedLock::verifyHeldAsync);
    }

    /** Ends with the first name's loss, or with {@code null} once every name's hold was released. */
    @Override
    public CompletionStage<LockLostException> whenEnded() {
        CompletableFuture<LockLostException> ended = new CompletableFuture<>();
        List<CompletableFuture<LockLostException>> each = new ArrayList<>(holds.size());
        for (DetachedLock hold : holds) {
            each.add(hold.whenEnded().toCompletableFuture().thenApply(loss -> {
                if (loss != null) {
                    ended.complete(loss);
                }
                return loss;
            }));
        }
        CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenRun(() -> ended.complete(null));
        return ended.minimalCompletionStage();
    }

    /** Runs {@code action} on every hold at once; completes when all have, failed with the first failure if any. */
    private CompletionStage<Void> all(Function<DetachedLock, CompletionStage<Void>> action) {
        List<CompletableFuture<Void>> each = new ArrayList<>(holds.size());
        holds.forEach(hold -> each.add(action.apply(hold).toCompletableFuture()));
        return failingUnwrapped(CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)));
    }

    /** {@code stage}'s outcome, its failure as a name's own call failed (not wrapped in a CompletionException). */
    private static <T> CompletionStage<T> failingUnwrapped(CompletableFuture<T> stage) {
        CompletableFuture<T> done = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure == null) {
                done.complete(value);
            } else {
                done.completeExceptionally(unwrapped(failure));
            }
        });
        return done;
    }

    /** The failure a stage completed with, without the {@link CompletionException} that may wrap it. */
    static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException wrapped && wrapped.getCause() != null ? wrapped.getCause()
                : failure;
    }

    @Override
    public String toString() {
        return "DetachedLock" + name;
    }
}
