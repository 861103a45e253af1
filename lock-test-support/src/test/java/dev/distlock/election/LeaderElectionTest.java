package dev.distlock.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.Poll;
import dev.distlock.test.kit.StoreOp;
import dev.distlock.test.kit.TestLocks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Leader election between processes (registries) of one in-memory store on a clock the test moves: one leader at a
 * time, each term's epoch larger than the last, a leader whose renewals fail revoked before anyone else is granted,
 * a stopped leader revoked first and replaced at once.
 */
@Timeout(30)
class LeaderElectionTest {

    private static final Duration LEASE = Duration.ofSeconds(10);

    private final TestLocks locks = new TestLocks();
    /** What the candidates were told, in order: "A granted 12", "A revoked lost", "B revoked stopped". */
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final List<Long> epochs = new CopyOnWriteArrayList<>();
    private final List<LeaderElection> elections = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        elections.forEach(LeaderElection::stop);
        locks.close();
    }

    private LeaderElection candidate(String who, LockRegistry registry) {
        LeaderElection election = LeaderElection.builder(registry, "audit").lease(LEASE)
                .retryDelay(Duration.ofMillis(50)).listener(new LeaderListener() {
                    @Override
                    public void granted(LeaderTerm term) {
                        epochs.add(term.epoch());
                        told.add(who + " granted");
                    }

                    @Override
                    public void revoked(LeaderTerm term, LockLostException loss) {
                        told.add(who + " revoked " + (loss == null ? "stopped" : "lost"));
                    }
                }).build();
        elections.add(election);
        return election;
    }

    private void awaitTold(String what) {
        await("'" + what + "' told", () -> told.contains(what));
    }

    private void await(String what, BooleanSupplier condition) {
        Poll.until(what, Duration.ofSeconds(10), () -> condition.getAsBoolean() ? null : "told " + told);
    }

    @Test
    void oneLeaderAtATimeAndAStoppedLeaderIsReplacedAtOnce() {
        LeaderElection a = candidate("A", locks.registry());
        LeaderElection b = candidate("B", locks.newProcess());
        a.start();
        awaitTold("A granted");
        b.start();
        assertThat(a.isLeader()).isTrue();
        assertThat(a.term()).get().extracting(LeaderTerm::epoch).isEqualTo(epochs.get(0));
        assertThat(b.isLeader()).as("B waits while A leads").isFalse();

        a.stop();

        awaitTold("B granted");
        assertThat(told).containsExactly("A granted", "A revoked stopped", "B granted");
        assertThat(a.isLeader()).isFalse();
        assertThat(b.isLeader()).isTrue();
        assertThat(epochs.get(1)).as("the next term's epoch").isGreaterThan(epochs.get(0));
    }

    @Test
    void aLeaderWhoseRenewalsFailIsRevokedAtItsDeadlineBeforeAnotherCandidateIsGranted() {
        LeaderElection a = candidate("A", locks.registry());
        List<Boolean> aLeadingAtB = new CopyOnWriteArrayList<>();
        LeaderElection b = LeaderElection.builder(locks.newProcess(), "audit").listener(new LeaderListener() {
            @Override
            public void granted(LeaderTerm term) {
                aLeadingAtB.add(a.isLeader());
                epochs.add(term.epoch());
                told.add("B granted");
            }
        }).build();
        elections.add(b);
        a.start();
        awaitTold("A granted");
        b.start();
        for (int i = 0; i < 100; i++) {
            locks.failNext(StoreOp.RENEW, "audit", new IllegalStateException("no answer (test)"));
        }

        Duration step = Duration.ofMillis(50);
        while (a.isLeader()) {
            assertThat(b.isLeader()).as("B granted while A leads; told %s", told).isFalse();
            locks.advance(step);
        }

        assertThat(locks.clock().elapsed()).as("A stepped down before its lease of %s ran out", LEASE)
                .isLessThan(LEASE);
        awaitTold("A revoked lost");
        awaitTold("B granted");
        assertThat(aLeadingAtB).as("whether A was leader when B was granted").containsExactly(false);
        assertThat(epochs.get(1)).isGreaterThan(epochs.get(0));
    }

    @Test
    void aLeaderThatYieldsLetsTheWaitingCandidateLeadAndStandsBehindIt() throws Exception {
        LeaderElection a = candidate("A", locks.registry());
        LeaderElection b = candidate("B", locks.newProcess());
        a.start();
        awaitTold("A granted");
        b.start();

        a.yieldLeadership().get(10, java.util.concurrent.TimeUnit.SECONDS);
        awaitTold("B granted");
        b.yieldLeadership();

        await("A leads again", () -> told.size() == 5);
        assertThat(told).containsExactly("A granted", "A revoked stopped", "B granted", "B revoked stopped",
                "A granted");
        assertThat(epochs).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aWaitingCandidateThatStopsLeavesTheQueueAndIsNeverGranted() {
        LeaderElection a = candidate("A", locks.registry());
        LeaderElection b = candidate("B", locks.newProcess());
        a.start();
        awaitTold("A granted");
        b.start();
        b.stop();

        a.stop();

        assertThat(told).containsExactly("A granted", "A revoked stopped");
        assertThat(b.isRunning()).isFalse();
        await("the lock freed", () -> !locks.isHeld("audit"));
    }

    @Test
    void aLeaderWhoseRegistryClosesIsRevokedAndStopsStanding() throws Exception {
        LockRegistry registry = locks.newProcess();
        LeaderElection a = candidate("A", registry);
        a.start();
        awaitTold("A granted");

        ((AutoCloseable) registry).close();

        awaitTold("A revoked lost");
        await("the candidate stopped standing", () -> !a.isRunning());
        assertThat(a.isLeader()).isFalse();
    }

    @Test
    void aFailedWaitIsTriedAgainAndAFailingListenerStopsNothing() {
        locks.failNext(StoreOp.TRY_ACQUIRE, "audit", new UnsupportedOperationException("refused (test)"));
        LeaderElection a = LeaderElection.builder(locks.registry(), "audit").retryDelay(Duration.ofMillis(20))
                .listener(new LeaderListener() {
                    @Override
                    public void granted(LeaderTerm term) {
                        throw new IllegalStateException("a listener's bug (test)");
                    }
                }).listener(new LeaderListener() {
                    @Override
                    public void granted(LeaderTerm term) {
                        told.add("granted");
                    }
                }).build();
        elections.add(a);

        a.start();

        awaitTold("granted");
        assertThat(a.isLeader()).isTrue();
    }
}
