package dev.distlock.core.runtime;

import java.util.Map;
import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * What BlockHound should know of distlock, found by {@code BlockHound.install()} on the class path: the registry's
 * timer takes a task into its queue, or out of it when the task is cancelled, under the queue's lock, held for a few
 * heap operations only. A release, a hold's end or a wait's end cancels its timer task on the thread it completes on,
 * which may be one of Reactor's non-blocking threads; that brief lock is the same one Reactor's own integration allows
 * for its schedulers' tasks. Nothing else in distlock may block a thread BlockHound watches.
 */
public final class DistlockBlockHoundIntegration implements BlockHoundIntegration {

    /** The methods allowed to wait for the timer queue's lock, by the name of their class. */
    static final Map<String, String> TIMER_QUEUE_LOCK = Map.of(
            SystemExecutors.class.getName(), "schedule",
            SystemExecutors.class.getName() + "$TimerTask", "cancel");

    /** Made by BlockHound's service loader. */
    public DistlockBlockHoundIntegration() {
    }

    @Override
    public void applyTo(BlockHound.Builder builder) {
        TIMER_QUEUE_LOCK.forEach(builder::allowBlockingCallsInside);
    }
}
