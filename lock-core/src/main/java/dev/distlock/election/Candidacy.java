package dev.distlock.election;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LeaderElection} candidate's loop, and its state: standing (waiting for the election's lock), leading for
 * a term while it holds it, standing again after a loss (at once) or a failed wait (after the retry delay), until
 * stopped. Kept apart from the public handle and its builder so that the loop's state and its one monitor (this) are
 * in one place; what the listeners are told, and when, is the {@link ElectionThread}'s.
 */
final class Candidacy {

    /** Logged under the public class, whose category users configure. */
    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    private final String name;
    private final FencedLock lock;
    private final List<LeaderListener> listeners;
    private final Duration retryDelay;

    /** The listeners' thread, while started; guarded by this, as the other fields but the hold. */
    private ElectionThread events;
    private boolean running;
    /** The wait for the lock, while standing. */
    private CompletableFuture<DetachedLock> standing;
    private LeaderTerm term;
    private volatile DetachedLock hold;

    Candidacy(String name, FencedLock lock, List<LeaderListener> listeners, Duration retryDelay) {
        this.name = name;
        this.lock = lock;
        this.listeners = listeners;
        this.retryDelay = retryDelay;
    }

    /** See {@link LeaderElection#start()}. */
    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        events = new ElectionThread(name, listeners);
        stand();
    }

    synchronized boolean isRunning() {
        return running;
    }

    /** See {@link LeaderElection#isLeader()}. */
    boolean isLeader() {
        DetachedLock leading = hold;
        return leading != null && leading.isHeld();
    }

    synchronized Optional<LeaderTerm> term() {
        return isLeader() ? Optional.ofNullable(term) : Optional.empty();
    }

    /** The listeners' thread while started, else {@code null}: {@link LeaderElection#stop()} does not wait on it. */
    synchronized ElectionThread listenersThread() {
        return events;
    }

    /** See {@link LeaderElection#stopAsync()}. */
    synchronized CompletableFuture<Void> stopAsync() {
        if (!running) {
            return CompletableFuture.completedFuture(null);
        }
        running = false;
        CompletableFuture<DetachedLock> waiting = standing;
        standing = null;
        if (waiting != null) {
            waiting.cancel(false); // answered() finds it is no longer the wait, and gives back a late win
        }
        CompletableFuture<Void> stepped = stepDown();
        events.shutdown();
        events = null;
        return stepped;
    }

    /** See {@link LeaderElection#yieldLeadership()}. */
    synchronized CompletableFuture<Void> yieldLeadership() {
        if (!running || term == null) {
            return CompletableFuture.completedFuture(null);
        }
        return stepDown().thenRun(this::standAgain);
    }

    /** Ends the term led now, if any: revoked on the listeners' thread (after what is queued there), then released. */
    private CompletableFuture<Void> stepDown() {
        CompletableFuture<Void> stepped = events.stepDown(term, hold);
        term = null;
        hold = null;
        return stepped;
    }

    /** Waits for the lock; the wait is cancelled if the candidate stops. */
    private void stand() {
        CompletableFuture<DetachedLock> wait = lock.lockAsync().toCompletableFuture();
        standing = wait;
        wait.whenComplete((won, failure) -> answered(wait, won, failure));
    }

    private synchronized void answered(CompletableFuture<DetachedLock> wait, DetachedLock won, Throwable failure) {
        if (standing != wait) {
            if (won != null) {
                won.unlockAsync(); // won as the candidate stopped
            }
            return;
        }
        standing = null;
        if (failure == null) {
            granted(won);
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        if (cause instanceof IllegalStateException) {
            log.warn("Leader election '{}' stops standing: {}", name, cause.getMessage());
            stopAsync();
            return;
        }
        log.warn("Leader election '{}': the wait for its lock failed; it stands again in {}", name, retryDelay, cause);
        events.after(retryDelay, this::standAgain);
    }

    private synchronized void standAgain() {
        if (running && standing == null && hold == null) {
            stand();
        }
    }

    private void granted(DetachedLock won) {
        LeaderTerm began = new LeaderTerm(name, won.fencingToken(), Instant.now());
        hold = won;
        term = began;
        events.granted(began);
        won.whenEnded().thenAccept(loss -> ended(began, loss));
    }

    /** The term's hold ended: lost (revoked, and the candidate stands again), or released by {@link #stopAsync}. */
    private synchronized void ended(LeaderTerm term, LockLostException loss) {
        if (loss == null || this.term != term) {
            return;
        }
        log.warn("Leader election '{}': the term of epoch {} ended: {}", name, term.epoch(), loss.reason());
        this.term = null;
        hold = null;
        events.lost(term, loss);
        stand();
    }
}
