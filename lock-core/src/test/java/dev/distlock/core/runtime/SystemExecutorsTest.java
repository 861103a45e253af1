package dev.distlock.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing a registry's executors takes no new work but finishes what was handed over: a call under way (an
 * acquisition let in at its gate as the registry closes, a retry after a pause) comes to its end.
 */
class SystemExecutorsTest {

    private final SystemExecutors executors = new SystemExecutors();

    @Test
    void stepsHandedOverBeforeTheCloseStillRun() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        executors.steps().execute(() -> {
            running.countDown();
            await(goOn);
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < SystemExecutors.STEP_THREADS; i++) {
            executors.steps().execute(() -> await(goOn)); // every step thread busy: the next step queues
        }
        executors.steps().execute(queuedRan::countDown);

        executors.close();
        goOn.countDown();

        assertThat(queuedRan.await(10, TimeUnit.SECONDS)).as("the queued step ran").isTrue();
        assertThatThrownBy(() -> executors.steps().execute(() -> { }))
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void timerTasksScheduledBeforeTheCloseRunAtTheirTime() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        executors.schedule(ran::countDown, TimeUnit.MILLISECONDS.toNanos(50));

        executors.close();

        assertThat(ran.await(10, TimeUnit.SECONDS)).as("the pause ended, though the registry closed").isTrue();
        assertThatThrownBy(() -> executors.schedule(() -> { }, 0)).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void aCancelledTimerTaskNeverRuns() throws Exception {
        CountDownLatch cancelledRan = new CountDownLatch(1);
        CountDownLatch later = new CountDownLatch(1);
        executors.schedule(cancelledRan::countDown, TimeUnit.MILLISECONDS.toNanos(20)).cancel();
        executors.schedule(later::countDown, TimeUnit.MILLISECONDS.toNanos(60));

        executors.close();

        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(cancelledRan.getCount()).as("the cancelled task").isOne();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupt) {
            Thread.currentThread().interrupt();
        }
    }
}
