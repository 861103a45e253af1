package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A timer for ShedLock's {@code KeepAliveLockProvider} whose repeated task runs only when the test says so. */
final class ManualTimer extends ScheduledThreadPoolExecutor {

    private volatile Runnable command;
    private volatile ScheduledFuture<?> task;

    ManualTimer() {
        super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        this.command = command;
        this.task = super.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.DAYS);
        return task;
    }

    /** Runs the scheduled task once, on the calling thread. */
    void runTask() {
        assertThat(command).as("a task scheduled").isNotNull();
        command.run();
    }

    /** The future handed out for the task: cancelled when its owner stopped it. */
    ScheduledFuture<?> task() {
        return task;
    }
}
