package dev.distlock.core.engine.acquire;

import static dev.distlock.core.engine.EngineFixtures.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.store.Cleanup;
import dev.distlock.core.engine.store.TryFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A machine driven by steps ({@link StepMachine}): one end, whatever comes after it, and what a step's outcome
 * means; and the background clean-up of a token ({@link Cleanup}), sent until the store answers.
 */
@BoundedTest
class StepMachineAndCleanupTest {

    /** Runs steps when the test says, one at a time, in order. */
    private static final class Steps implements Executor {

        final List<Runnable> pending = new ArrayList<>();

        @Override
        public void execute(Runnable step) {
            pending.add(step);
        }

        void runAll() {
            while (!pending.isEmpty()) {
                pending.remove(0).run();
            }
        }
    }

    /** A machine that records its restarts and its end. */
    private static final class Machine extends StepMachine {

        final List<String> heard = new ArrayList<>();

        Machine(Executor steps) {
            super(steps);
        }

        @Override
        void restart() {
            heard.add("restart");
        }

        @Override
        void finish(Hold hold, Throwable error) {
            heard.add("finish " + (error != null ? error.getClass().getSimpleName() : hold));
            boolean inFlight = markFinished();
            heard.add("in flight " + inFlight);
            complete(hold, error);
        }
    }

    private final Steps steps = new Steps();
    private final Machine machine = new Machine(steps);
    private final EngineFixtures.Engine engine = EngineFixtures.engine(new FaultyStore());

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void aStepsOutcomeDecidesWhatComesNext() {
        machine.submit(() -> {
            throw TryFailures.Restart.INSTANCE;
        });
        steps.runAll();
        assertThat(machine.heard).containsExactly("restart");
        assertThat(machine.isDone()).isFalse();

        machine.submit(() -> {
            throw TryFailures.OutOfTime.INSTANCE;
        });
        steps.runAll();
        assertThat(machine.heard).containsExactly("restart", "finish null", "in flight false");
        assertThat(machine.result()).isCompletedWithValue(null);
    }

    @Test
    void anErrorEndsTheMachineWithItAndNoStepRunsAfterTheEnd() {
        List<String> ran = new ArrayList<>();
        machine.submit(() -> {
            throw new InterruptedException("stop");
        });
        machine.submit(() -> ran.add("after the end"));
        steps.runAll();

        assertThat(machine.heard).containsExactly("finish InterruptedException", "in flight false");
        assertThat(ran).isEmpty();
        assertThat(machine.result()).isCompletedExceptionally();

        Machine failing = new Machine(steps);
        failing.submit(() -> {
            throw new IllegalStateException("bug");
        });
        steps.runAll();
        assertThat(failing.heard).containsExactly("finish IllegalStateException", "in flight false");
    }

    @Test
    void afterACancellationTheNextStepEndsTheMachineInstead() {
        List<String> ran = new ArrayList<>();
        machine.submit(() -> ran.add("before"));
        machine.cancel();
        machine.submit(() -> ran.add("after"));
        steps.runAll();

        assertThat(ran).isEmpty();
        assertThat(machine.heard).containsExactly("finish null", "in flight false");
        assertThat(machine.result()).isCompletedWithValue(null);
    }

    @Test
    void anAnswerAtHandIsHandledWithinTheStepAndALaterOneInALaterStepUnlessTheMachineEnded() throws Exception {
        List<String> handled = new ArrayList<>();
        machine.submit(() -> machine.afterReply(CompletableFuture.completedFuture("now"),
                (answer, failure) -> handled.add(answer + " in flight " + machine.inFlight())));
        machine.submit(() -> machine.afterReply(CompletableFuture.failedFuture(
                new java.util.concurrent.CompletionException(new IllegalStateException("x"))),
                (answer, failure) -> handled.add(failure.getClass().getSimpleName())));
        steps.runAll();
        assertThat(handled).containsExactly("now in flight false", "IllegalStateException");

        CompletableFuture<String> later = new CompletableFuture<>();
        machine.submit(() -> machine.afterReply(later, (answer, failure) -> handled.add(answer)));
        steps.runAll();
        assertThat(machine.inFlight()).isTrue();
        later.complete("later");
        steps.runAll();
        assertThat(handled).endsWith("later");
        assertThat(machine.inFlight()).isFalse();

        CompletableFuture<String> tooLate = new CompletableFuture<>();
        machine.submit(() -> machine.afterReply(tooLate, (answer, failure) -> handled.add(answer)));
        machine.submit(() -> machine.finish(null, null));
        steps.runAll();
        assertThat(machine.heard).containsExactly("finish null", "in flight true");
        tooLate.complete("too late");
        steps.runAll();
        assertThat(handled).doesNotContain("too late");
    }

    @Test
    void aStepRunOutsideTheMachineRunsInItsTurnEvenAfterTheEnd() {
        List<String> ran = new CopyOnWriteArrayList<>();
        machine.submit(() -> machine.finish(null, null));
        machine.execute(() -> ran.add("task"));
        steps.runAll();
        assertThat(ran).containsExactly("task");
    }

    @Test
    void aCleanupIsSentAtOnceAndAgainUntilTheStoreAnswers() throws Exception {
        FaultyStore store = (FaultyStore) engine.store;
        store.tryAcquire("c", "t", 30_000, false, 1_000);
        Cleanup cleanup = new Cleanup(engine.sends, engine.runtime);

        cleanup.abandon("c", "t", 30_000, false);

        awaitTrue(() -> !store.isLocked("c"), "the clean-up");
        assertThat(store.count("abandon c t")).isEqualTo(1);
    }

    @Test
    void aFailedCleanupIsSentAgainAfterAPauseUntilItRuns() throws Exception {
        FaultyStore store = (FaultyStore) engine.store;
        store.tryAcquire("c", "t", 30_000, false, 1_000);
        store.failAbandons.set(2);
        Cleanup cleanup = new Cleanup(engine.sends, engine.runtime);

        cleanup.abandon("c", "t", 30_000, false);

        awaitTrue(() -> !store.isLocked("c"), "the clean-up, sent again");
        assertThat(store.count("abandon c t")).isEqualTo(3);
    }
}
