package dev.distlock.core;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition of a lock on several names by a blocking caller ({@link MultiNameLock#tryLock},
 * {@link MultiNameLock#lock}, {@link MultiNameLock#lockInterruptibly}): the names one after another, in their
 * canonical order, on the caller's thread. It ends with all of them, or with none: if a name stays busy past the
 * wait, or taking it fails or is interrupted, what this call took is given back exactly once and without waiting
 * for the backend. A name the thread held before was only counted again, so giving it back takes that count off
 * and leaves the thread's own hold held; a name taken anew is detached and released in the background
 * ({@link DetachedNames#giveBack}). A release that fails is the registry's to report (its listeners, its background
 * clean-up): the caller's answer stays the timeout, or the failure that ended its wait.
 */
final class BlockingNamesAcquisition {

    private static final Logger log = LoggerFactory.getLogger(BlockingNamesAcquisition.class);

    /** Takes one name for the current thread: true if taken, false if its wait ran out. */
    @FunctionalInterface
    interface Step {
        boolean take(FencedLock lock) throws InterruptedException;
    }

    private final List<FencedLock> reentered = new ArrayList<>();
    private final List<FencedLock> takenAnew = new ArrayList<>();

    private BlockingNamesAcquisition() {
    }

    /**
     * Takes every one of {@code locks} (in their order) with {@code step}; true if it has them all, false (having
     * given back what it took) if a name's wait ran out. What {@code step} throws is thrown, after the give-back.
     */
    static boolean takeAll(List<FencedLock> locks, Step step) throws InterruptedException {
        BlockingNamesAcquisition acquisition = new BlockingNamesAcquisition();
        boolean all = false;
        try {
            for (FencedLock lock : locks) {
                if (!acquisition.take(lock, step)) {
                    return false;
                }
            }
            all = true;
            return true;
        } finally {
            if (!all) {
                acquisition.giveBack();
            }
        }
    }

    private boolean take(FencedLock lock, Step step) throws InterruptedException {
        boolean heldBefore = lock.holdCount() > 0; // then taking it only counts it once more
        if (!step.take(lock)) {
            return false;
        }
        (heldBefore ? reentered : takenAnew).add(lock);
        return true;
    }

    /** Gives back what this call took, each name once; never waits for the backend and never throws. */
    private void giveBack() {
        List<DetachedLock> released = new ArrayList<>(takenAnew.size());
        for (FencedLock lock : takenAnew) {
            try {
                released.add(lock.detach());
            } catch (RuntimeException failure) {
                log.warn("Lock '{}' could not be given back after its set was not acquired", lock.name(), failure);
            }
        }
        DetachedNames.giveBack(released);
        for (int i = reentered.size() - 1; i >= 0; i--) {
            FencedLock lock = reentered.get(i);
            try {
                lock.unlock(); // the count this call added: the thread's own hold stays held
            } catch (RuntimeException failure) {
                log.warn("Lock '{}' could not be given back after its set was not acquired", lock.name(), failure);
            }
        }
    }
}
