package dev.distlock.core.runtime;

/**
 * How a blocking caller's thread waits for the next step of its call, and how it is woken when one comes. The engine
 * runs a blocking call's steps on the caller's own thread: between steps the thread waits on the call's monitor,
 * and whoever hands the call a step (an answer, a timer, another caller's release) wakes it. By default this is
 * {@link Object#wait()} and {@link Object#notifyAll()}; a simulation that runs its callers' threads one at a time
 * parks and wakes them its own way ({@link LockRuntime#callerWaits()}).
 */
public interface CallerWaits {

    /** {@link Object#wait()} and {@link Object#notifyAll()}. */
    CallerWaits MONITOR = new CallerWaits() {

        @Override
        public void await(Object monitor) throws InterruptedException {
            monitor.wait();
        }

        @Override
        public void wake(Object monitor) {
            monitor.notifyAll();
        }
    };

    /**
     * Waits on the calling thread, which holds {@code monitor}'s lock, until {@linkplain #wake woken} or interrupted,
     * giving the lock up meanwhile as {@link Object#wait()} does. It may return without being woken: the caller
     * checks again what it waits for.
     *
     * @throws InterruptedException if the thread was interrupted before or while it waited
     */
    void await(Object monitor) throws InterruptedException;

    /** Wakes the thread waiting on {@code monitor}, if any; the calling thread holds {@code monitor}'s lock. */
    void wake(Object monitor);
}
