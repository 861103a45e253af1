package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.hold.NameGate;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.WaitTimers;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An acquisition's time ({@link WaitTimers}) and its place at its name's local gate ({@link NameGate},
 * {@link GatePass}): one call at a time is inside, the others wait in arrival order and can leave while waiting.
 */
@BoundedTest
class WaitTimersAndGateTest {

    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    private final EngineFixtures.TimerRuntime system = new EngineFixtures.TimerRuntime();
    /** The acquisitions' runtime; its timer's queue ({@link #queue}) shows the deadlines armed and cancelled. */
    private final EngineRuntime timer = EngineFixtures.timerRuntime(system);

    @AfterEach
    void close() {
        timer.close();
    }

    private java.util.concurrent.BlockingQueue<Runnable> queue() {
        return system.executors.timer.getQueue();
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertThat(latch.await(5, TimeUnit.SECONDS)).as("%s within 5 s", what).isTrue();
    }

    @Test
    void aZeroOrNegativeWaitIsOneTryAndAnUnlimitedWaitNeverEnds() {
        assertThat(EngineFixtures.waitTimers(timer, 0).waits()).isFalse();
        assertThat(EngineFixtures.waitTimers(timer, -5).waits()).isFalse();
        assertThat(EngineFixtures.waitTimers(timer, -5).remainingNanos()).isLessThanOrEqualTo(0);
        assertThat(EngineFixtures.waitTimers(timer, 1).waits()).isTrue();

        WaitTimers unlimited = EngineFixtures.waitTimers(timer, Long.MAX_VALUE);
        assertThat(unlimited.remainingNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(unlimited.isAfterDeadline(EngineFixtures.now() + HOUR)).isFalse();
        unlimited.armDeadline(() -> { });
        assertThat(queue()).as("no deadline armed").isEmpty();
    }

    @Test
    void whatIsLeftOfABoundedWaitShrinksFromItsStartAndItsDeadlineIsAnInstant() {
        long before = EngineFixtures.now();
        WaitTimers time = EngineFixtures.waitTimers(timer, HOUR);
        long after = EngineFixtures.now();

        long left = time.remainingNanos();
        assertThat(left).isLessThanOrEqualTo(HOUR).isGreaterThan(HOUR - TimeUnit.MINUTES.toNanos(1));
        assertThat(time.isAfterDeadline(before + HOUR)).isFalse();
        assertThat(time.isAfterDeadline(after + HOUR + 1)).isTrue();
        assertThat(time.isAfterDeadline(after)).isFalse();
        assertThat(time.waited()).isLessThan(java.time.Duration.ofMinutes(1));
    }

    @Test
    void theDeadlineIsArmedOnceAndFiresWhenTheWaitRunsOut() throws Exception {
        WaitTimers time = EngineFixtures.waitTimers(timer, TimeUnit.MILLISECONDS.toNanos(20));
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger fires = new AtomicInteger();

        time.armDeadline(() -> {
            fires.incrementAndGet();
            fired.countDown();
        });
        time.armDeadline(fires::incrementAndGet);

        await(fired, "the deadline");
        assertThat(fires).hasValue(1);
        assertThat(time.remainingNanos()).isLessThanOrEqualTo(0);
    }

    @Test
    void aCancelledDeadlineDoesNotFire() {
        WaitTimers time = EngineFixtures.waitTimers(timer, HOUR);
        time.armDeadline(() -> { });
        assertThat(queue()).hasSize(1);

        time.cancelDeadline();

        assertThat(queue()).allMatch(task -> ((java.util.concurrent.Future<?>) task).isCancelled());
    }

    @Test
    void aSleepEndsByItsTimerOrByAWakeUpWhichCancelsTheTimer() throws Exception {
        WaitTimers time = EngineFixtures.waitTimers(timer, HOUR);
        assertThat(time.wake()).as("not sleeping").isFalse();

        CountDownLatch woken = new CountDownLatch(1);
        time.sleep(TimeUnit.MILLISECONDS.toNanos(10), woken::countDown);
        await(woken, "the wake-up");

        time.sleep(HOUR, () -> { });
        assertThat(time.wake()).isTrue();
        assertThat(time.wake()).isFalse();
        assertThat(queue()).allMatch(task -> ((java.util.concurrent.Future<?>) task).isCancelled());

        time.sleep(HOUR, () -> { });
        time.sleep(HOUR, () -> { });
        assertThat(queue()).filteredOn(task -> !((java.util.concurrent.Future<?>) task).isCancelled())
                .as("a new sleep replaces the old one").hasSize(1);
    }

    @Test
    void onceTheTimerIsClosedATimedTaskRunsAtOnce() {
        WaitTimers time = EngineFixtures.waitTimers(timer, HOUR);
        timer.close();
        AtomicInteger ran = new AtomicInteger();

        assertThat(time.after(HOUR, ran::incrementAndGet)).isSameAs(EngineRuntime.NOTHING);
        time.armDeadline(ran::incrementAndGet);

        assertThat(ran).hasValue(2);
    }

    @Test
    void theGateLetsOneCallInAtATimeInArrivalOrder() {
        NameGate gate = new NameGate();
        NameGate.Waiting first = gate.enter(null);
        NameGate.Waiting second = gate.enter(null);
        NameGate.Waiting third = gate.enter(null);

        assertThat(first.entry).isDone();
        assertThat(second.entry).isNotDone();
        assertThat(third.entry).isNotDone();

        gate.leave();
        assertThat(second.entry).isDone();
        assertThat(second.passed()).isNull();
        assertThat(third.entry).isNotDone();

        gate.leave();
        assertThat(third.entry).isDone();
        gate.leave();
        assertThat(gate.enter(null).entry).as("free again").isDone();
    }

    @Test
    void aWaitingCallCanLeaveTheQueueUntilItIsLetIn() {
        NameGate gate = new NameGate();
        gate.enter(null);
        NameGate.Waiting second = gate.enter(null);
        NameGate.Waiting third = gate.enter(null);

        assertThat(gate.withdraw(second)).isTrue();
        assertThat(gate.withdraw(second)).isFalse();
        gate.leave();
        assertThat(third.entry).isDone();
        assertThat(gate.withdraw(third)).as("let in already").isFalse();
        assertThat(new NameGate().withdraw(third)).as("nobody ever waited").isFalse();
    }

    @Test
    void aHandOnTakesTheNextCallerOutOfTheQueueAndKeepsTheGateOwned() {
        NameGate gate = new NameGate();
        assertThat(gate.handOn()).isNull();
        gate.enter(null);
        assertThat(gate.handOn()).as("nobody waits").isNull();
        NameGate.Waiting second = gate.enter(null);
        NameGate.Waiting third = gate.enter(null);

        assertThat(gate.handOn()).isSameAs(second);
        assertThat(second.entry).as("let in by the owner, later").isNotDone();
        assertThat(gate.withdraw(second)).isFalse();
        NameGate.PassedTry passed = new NameGate.PassedTry(CompletableFuture.completedFuture(null), 42);
        second.letIn(passed);
        assertThat(second.entry).isDone();
        assertThat(second.passed()).isSameAs(passed);
        assertThat(third.entry).isNotDone();
        assertThat(gate.enter(null).entry).as("still owned").isNotDone();
    }

    @Test
    void aClosingRegistryOpensTheGateForEveryoneNowAndLater() {
        NameGate gate = new NameGate();
        gate.enter(null);
        NameGate.Waiting second = gate.enter(null);
        NameGate.Waiting third = gate.enter(null);

        gate.openForClose();

        assertThat(second.entry).isDone();
        assertThat(third.entry).isDone();
        assertThat(gate.enter(null).entry).isDone();
        new NameGate().openForClose();
    }

    @Test
    void aPassThatEndedWithoutAHoldGivesTheGateOnAndOneWithAHoldKeepsIt() {
        NameGate gate = new NameGate();
        GatePass withHold = new GatePass(gate, null, null, null, "g");
        withHold.enter();
        withHold.entered();
        assertThat(withHold.isInside()).isTrue();
        NameGate.Waiting next = gate.enter(null);

        withHold.ended(true);
        assertThat(next.entry).as("the hold keeps the gate").isNotDone();

        gate.leave();
        assertThat(next.entry).isDone();
        GatePass without = new GatePass(gate, null, null, null, "g");
        assertThat(without.enter()).isNotDone();
        NameGate.Waiting after = gate.enter(null);
        gate.leave();
        without.entered();
        assertThat(without.isInside()).isTrue();
        without.ended(false);
        assertThat(after.entry).as("given on").isDone();
    }

    @Test
    void aPassThatGaveUpWaitingLeavesTheQueueAndOneLetInAsItEndedGivesTheGateOn() {
        NameGate gate = new NameGate();
        gate.enter(null);
        GatePass waiting = new GatePass(gate, null, null, null, "g");
        waiting.enter();
        NameGate.Waiting behind = gate.enter(null);

        assertThat(waiting.isInside()).isFalse();
        assertThat(waiting.giveUp()).isTrue();
        waiting.ended(false);
        gate.leave();
        assertThat(behind.entry).as("next after the one that left").isDone();

        NameGate other = new NameGate();
        other.enter(null);
        GatePass racing = new GatePass(other, null, null, null, "g");
        racing.enter();
        NameGate.Waiting last = other.enter(null);
        other.leave(); // lets the pass in just as it ends, before its step ran
        assertThat(racing.passed()).isNull();
        racing.ended(false);
        assertThat(last.entry).as("the gate goes on from the pass let in as it ended").isDone();
    }
}
