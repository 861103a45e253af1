package dev.distlock.shedlock;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * distlock as ShedLock's {@link LockProvider}: {@code @SchedulerLock} jobs (and ShedLock's {@code LockingTaskExecutor})
 * run on distlock unchanged, with ShedLock's semantics. A lock name is the job's name; a busy lock is skipped (no
 * wait); {@code lockAtMostFor} is the lock's fixed lease, not renewed, so a job that runs longer loses it as ShedLock
 * documents; {@code lockAtLeastFor} keeps the lock taken after the job if it ended sooner; {@link SimpleLock#extend}
 * sets a new {@code lockAtMostFor} from now. Each acquisition has a fencing token, as every distlock hold.
 *
 * <p>The names share the registry with {@code @DistributedLock}: a {@code @SchedulerLock(name = "report")} job and a
 * {@code @DistributedLock(name = "report")} method exclude each other.
 *
 * @since 0.1.0
 */
public final class DistlockLockProvider implements LockProvider {

    private final LockRegistry locks;

    public DistlockLockProvider(LockRegistry locks) {
        this.locks = Objects.requireNonNull(locks, "locks");
    }

    /**
     * One try: the lock when it is free, empty when someone holds it. The hold belongs to no thread, as ShedLock's
     * locks do not: it may be released from any thread, and the same thread trying again is refused too.
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        DetachedLock hold;
        try {
            hold = locks.obtain(configuration.getName(), Lease.fixed(configuration.getLockAtMostFor()))
                    .tryLockAsync(Duration.ZERO).toCompletableFuture().join();
        } catch (CompletionException failed) {
            throw failed.getCause() instanceof RuntimeException cause ? cause : failed;
        }
        return hold == null ? Optional.empty() : Optional.of(new Held(hold, configuration.getLockAtLeastUntil()));
    }

    /** One acquisition, until its release or its extension (which gives a new one). */
    private static final class Held implements SimpleLock {

        private final DetachedLock hold;
        private final Instant lockAtLeastUntil;

        Held(DetachedLock hold, Instant lockAtLeastUntil) {
            this.hold = hold;
            this.lockAtLeastUntil = lockAtLeastUntil;
        }

        /** Releases, or leaves the lock taken until {@code lockAtLeastFor} is over. */
        @Override
        public void unlock() {
            Duration atLeast = Duration.between(Instant.now(), lockAtLeastUntil);
            if (atLeast.toMillis() > 0) {
                hold.unlockAfter(Duration.ofMillis(atLeast.toMillis()));
            } else {
                hold.unlock();
            }
        }

        /** The lock with {@code lockAtMostFor} from now; empty if it was lost meanwhile (it is not held then). */
        @Override
        public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            try {
                hold.extend(lockAtMostFor);
            } catch (LockLostException lost) {
                return Optional.empty();
            }
            return Optional.of(new Held(hold, Instant.now().plus(lockAtLeastFor)));
        }
    }
}
