package dev.distlock.shedlock;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.DistributedLockException;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * distlock as ShedLock's {@link LockProvider}: {@code @SchedulerLock} jobs (and ShedLock's {@code LockingTaskExecutor})
 * run on distlock unchanged, with ShedLock's semantics. A lock name is the job's name; a busy lock is skipped (no
 * wait); {@code lockAtMostFor} is the lock's fixed lease, not renewed, so a job that runs longer loses it as ShedLock
 * documents, and its {@code unlock()} then does nothing; {@code lockAtLeastFor} keeps the lock taken after the job if
 * it ended sooner (both counted from the lock's creation, as ShedLock counts them). Each acquisition has a fencing
 * token, as every distlock hold.
 *
 * <p>It is an {@link ExtensibleLockProvider}: {@link SimpleLock#extend} sets a new {@code lockAtMostFor} from now and
 * returns the lock to use next, so ShedLock's {@code LockExtender} and {@code KeepAliveLockProvider} work with it.
 * See {@link DistlockSimpleLock} for what each call does once the lock is no longer this holder's.
 *
 * <p>The names share the registry with {@code @DistributedLock}: a {@code @SchedulerLock(name = "report")} job and a
 * {@code @DistributedLock(name = "report")} method exclude each other.
 *
 * @since 0.1.0
 */
public final class DistlockLockProvider implements ExtensibleLockProvider {

    private static final Logger log = LoggerFactory.getLogger(DistlockLockProvider.class);

    private final LockRegistry locks;

    public DistlockLockProvider(LockRegistry locks) {
        this.locks = Objects.requireNonNull(locks, "locks");
    }

    /**
     * One try: the lock when it is free, empty when someone holds it. The hold belongs to no thread, as ShedLock's
     * locks do not: it may be released from any thread, and the same thread trying again is refused too. A window
     * shorter than a second is acquired with a lease of a second, then cut to what is left of it (see
     * {@link ShedLockWindow#SHORTEST_ACQUIRING_LEASE}).
     *
     * @throws dev.distlock.core.LockBackendException if the store failed
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        ShedLockWindow window = ShedLockWindow.startingNow(configuration);
        DetachedLock hold;
        try {
            hold = locks.obtain(configuration.getName(), Lease.fixed(window.acquiringLease()))
                    .tryLockAsync(Duration.ZERO).toCompletableFuture().join();
        } catch (CompletionException failed) {
            throw failed.getCause() instanceof RuntimeException cause ? cause : failed;
        }
        if (hold == null) {
            return Optional.empty();
        }
        if (window.isShorterThanAnAcquiringLease()) {
            cutToTheWindow(hold, window);
        }
        return Optional.of(new DistlockSimpleLock(hold, window));
    }

    /**
     * Sets the lease of a hold acquired with a longer one to what is left of its window. The lock is the caller's
     * whatever the answer, as a lock whose store set it with the window's lease would be: one that ended meanwhile
     * has expired (its holder's {@code unlock} does nothing, its {@code extend} gives nothing); one whose lease could
     * not be cut expires with the lease it was acquired with.
     */
    private static void cutToTheWindow(DetachedLock hold, ShedLockWindow window) {
        try {
            hold.extend(window.leaseLeft());
        } catch (DistributedLockException notCut) {
            log.debug("The lease of lock '{}' was not cut to its lockAtMostFor", hold.name(), notCut);
        }
    }
}
