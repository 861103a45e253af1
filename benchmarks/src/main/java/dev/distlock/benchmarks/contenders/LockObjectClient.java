package dev.distlock.benchmarks.contenders;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A client of a library that hands out {@link Lock} objects by key (distlock, Redisson, Spring Integration): the
 * lock is obtained afresh for every acquisition, as application code does.
 *
 * @param <L> the library's lock type
 */
final class LockObjectClient<L extends Lock> implements LockClient {

    private final Function<String, L> obtain;
    private final Consumer<L> onAcquired;
    private final Runnable close;

    /**
     * @param obtain the library's lock for a key
     * @param onAcquired what a user does right after acquiring, e.g. reading the fencing token
     * @param close closes the library's client and connections
     */
    LockObjectClient(Function<String, L> obtain, Consumer<L> onAcquired, Runnable close) {
        this.obtain = obtain;
        this.onAcquired = onAcquired;
        this.close = close;
    }

    @Override
    public Hold tryLock(String key, long waitNanos) throws InterruptedException {
        L lock = obtain.apply(key);
        if (!lock.tryLock(waitNanos, TimeUnit.NANOSECONDS)) {
            return null;
        }
        onAcquired.accept(lock);
        return lock::unlock;
    }

    @Override
    public void close() {
        close.run();
    }
}
