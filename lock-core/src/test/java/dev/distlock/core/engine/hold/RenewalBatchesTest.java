package dev.distlock.core.engine.hold;

import static dev.distlock.core.engine.EngineFixtures.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.Renewal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Renewals due together go to the store in one call ({@link RenewalBatches}), and each hold's answer, or the failure
 * or silence of the call, reaches the {@link Watchdog} on its own.
 */
@BoundedTest
class RenewalBatchesTest {

    private static final long LEASE = 30_000;

    /** A store client that only takes renewals, each answered when the test says. */
    private static final class Renewals implements AsyncLockStore {

        final List<List<Renewal>> batches = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<Boolean>> answers = new CopyOnWriteArrayList<>();
        volatile RuntimeException refuse;

        @Override
        public List<CompletionStage<Boolean>> renewAll(List<Renewal> renewals) {
            if (refuse != null) {
                throw refuse;
            }
            batches.add(renewals);
            List<CompletionStage<Boolean>> sent = new ArrayList<>();
            for (int i = 0; i < renewals.size(); i++) {
                CompletableFuture<Boolean> answer = new CompletableFuture<>();
                answers.add(answer);
                sent.add(answer);
            }
            return sent;
        }

        @Override
        public CompletionStage<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
                long waiterTimeoutMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Boolean> release(String name, String token, long fencingToken) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Void> abandon(String name, String token) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Boolean> extend(String name, String token, long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Boolean> renew(String name, String token, long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Long> remainingLeaseMillis(String name, String token) {
            throw new UnsupportedOperationException();
        }
    }

    private final EngineFixtures.Engine engine = EngineFixtures.engine(new FaultyStore());
    private final List<String> losses = new CopyOnWriteArrayList<>();
    private final Watchdog watchdog = engine.watchdog((hold, reason) -> losses.add(hold.name + ": " + reason));
    private final Renewals sends = new Renewals();
    private final RenewalBatches batches = new RenewalBatches(sends, engine.runtime, watchdog);

    @AfterEach
    void close() {
        engine.close();
    }

    private Hold hold(String name, long leaseMillis) {
        long now = EngineFixtures.now();
        return EngineFixtures.hold(new NameState(), name, "token-" + name, 1, leaseMillis, true,
                now + EngineFixtures.HOUR_NANOS, false, now + EngineFixtures.HOUR_NANOS);
    }

    /**
     * Keeps the timer's one thread busy until the latch is counted down, so that renewals asked for meanwhile count as
     * asked for "within a millisecond", however slow this machine is.
     */
    private java.util.concurrent.CountDownLatch busyTimer() {
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
        engine.timer().execute(() -> {
            try {
                asked.await();
            } catch (InterruptedException closed) {
                Thread.currentThread().interrupt();
            }
        });
        return asked;
    }

    @Test
    void renewalsDueTogetherGoInOneCallAndEachAnswerReachesItsHold() throws Exception {
        long fiveSeconds = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        long start = EngineFixtures.now();
        Hold confirmed = EngineFixtures.hold(new NameState(), "a", "token-a", 1, LEASE, true, start + fiveSeconds,
                false, start + EngineFixtures.HOUR_NANOS);
        Hold gone = hold("b", LEASE);
        Hold failed = hold("c", 1_000);
        long before = EngineFixtures.now();
        java.util.concurrent.CountDownLatch asked = busyTimer();

        batches.renew(confirmed, LEASE, 0);
        batches.renew(gone, LEASE, 0);
        batches.renew(failed, 1_000, 0);
        asked.countDown();

        awaitTrue(() -> sends.batches.size() == 1, "the batch sent");
        assertThat(sends.batches.get(0)).containsExactly(new Renewal("a", "token-a", LEASE),
                new Renewal("b", "token-b", LEASE), new Renewal("c", "token-c", 1_000));
        sends.answers.get(0).complete(true);
        sends.answers.get(1).complete(false);
        sends.answers.get(2).completeExceptionally(new IllegalStateException("node down"));

        awaitTrue(() -> confirmed.validUntilNanos() > start + fiveSeconds, "the confirmation");
        assertThat(confirmed.validUntilNanos()).isBetween(HoldClock.validUntil(before, LEASE),
                HoldClock.validUntil(EngineFixtures.now(), LEASE));
        awaitTrue(() -> !losses.isEmpty(), "the loss");
        assertThat(losses).containsExactly("b: a renewal found that the store no longer holds it under this hold's "
                + "token");
        awaitTrue(() -> engine.heard.kinds.contains("renewalFailed"), "the failed renewal heard");
        assertThat(engine.heard.events).singleElement().satisfies(event -> {
            assertThat(event.lockName()).isEqualTo("c");
            assertThat(event.error()).hasRootCauseMessage("node down");
        });
        assertThat(sends.batches).hasSize(1);
    }

    @Test
    void aFullBatchGoesAtOnceAndTheRestInTheNext() throws Exception {
        List<Hold> holds = new ArrayList<>();
        for (int i = 0; i <= RenewalBatches.MAX_BATCH; i++) {
            holds.add(hold("n" + i, LEASE));
        }

        java.util.concurrent.CountDownLatch asked = busyTimer();
        for (int i = 0; i < RenewalBatches.MAX_BATCH; i++) {
            batches.renew(holds.get(i), LEASE, 0);
        }
        assertThat(sends.batches).as("sent by the renewal that filled it").hasSize(1);
        batches.renew(holds.get(RenewalBatches.MAX_BATCH), LEASE, 0);
        asked.countDown();

        awaitTrue(() -> sends.batches.size() == 2, "the second batch sent");
        assertThat(sends.batches.get(0)).hasSize(RenewalBatches.MAX_BATCH);
        assertThat(sends.batches.get(1)).singleElement().extracting(Renewal::name)
                .isEqualTo("n" + RenewalBatches.MAX_BATCH);
    }

    @Test
    void aBatchTheStoreRefusedToSendFailsEachOfItsRenewals() throws Exception {
        sends.refuse = new IllegalStateException("closed connection");

        batches.renew(hold("x", LEASE), LEASE, 0);
        batches.renew(hold("y", LEASE), LEASE, 0);

        awaitTrue(() -> engine.heard.kinds.size() == 2, "both renewals failed");
        assertThat(engine.heard.events).extracting(event -> event.lockName()).containsExactlyInAnyOrder("x", "y");
        assertThat(losses).isEmpty();
    }
}
