package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The hold of a lock on several names that no thread owns ({@link MultiNameLock}): one hold per name, together. */
final class DetachedNames implements DetachedLock {

    private static final Logger log = LoggerFactory.getLogger(DetachedNames.class);

    private final String name;
    /** In the names' canonical order. */
    private final List<DetachedLock> holds;

    DetachedNames(String name, List<DetachedLock> holds) {
        this.name = name;
        this.holds = holds;
    }

    /**
     * Releases holds taken by an acquisition that did not get all its names, the last first, without waiting. A
     * failure is not the acquisition's: the registry reports it (a loss to the listeners' {@code onLost}, a release
     * without answer to {@code onReleaseFailed}, then retried in the background until the lease ends) and it is
     * logged here at DEBUG.
     */
    static void giveBack(List<DetachedLock> holds) {
        for (int i = holds.size() - 1; i >= 0; i--) {
            DetachedLock hold = holds.get(i);
            hold.unlockAsync().exceptionally(failure -> {
                log.debug("Giving back lock '{}' after its set was not acquired failed", hold.name(), failure);
                return null;
            });
        }
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
        throw MultiNameLock.noSingleToken(name);
    }

    @Override
    public Map<String, Long> fencingTokens() {
        return MultiNameLock.tokens(holds, DetachedLock::name, DetachedLock::fencingToken);
    }

    /** Whether every name is still held. */
    @Override
    public boolean isHeld() {
        return holds.stream().allMatch(DetachedLock::isHeld);
    }

    @Override
    public void unlock() {
        MultiNameLock.eachInReverse(holds, DetachedLock::unlock);
    }

    @Override
    public void unlockAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        MultiNameLock.eachInReverse(holds, hold -> hold.unlockAfter(delay));
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
