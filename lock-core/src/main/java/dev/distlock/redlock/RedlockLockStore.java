package dev.distlock.redlock;

import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Announcements;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.StoreFailure;
import dev.distlock.redlock.Answers.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Redlock algorithm as a {@link LockStore} over N independent Redis servers (N odd): every operation runs
 * on all of them in parallel, each call bounded by a short node timeout, and counts only with a majority.
 * It offers no queue and no hand-off notices (waiters poll); it offers reads, forced releases and announcements,
 * each made on every node and counted with a majority.
 *
 * <ul>
 *   <li>an acquisition sets the same token on every node; it holds if a majority took it and the time that
 *   took leaves validity (lease − elapsed − drift); otherwise it is released again on every node, also those
 *   that seemed to fail, and the caller retries after the poll pause (no queue: waiters poll);</li>
 *   <li>a renewal or {@code extend} counts if a majority extended it; a release releases on every node;</li>
 *   <li>the fencing token is the largest a majority issued, and it is written back to the nodes of that
 *   majority that issued smaller ones before the acquisition counts: every later majority shares a node with
 *   this one, so later holders get larger tokens, whatever the nodes' clocks say (as long as no node forgets
 *   what it was told: see the restart rule);</li>
 *   <li>too few answers (nodes down or slow) is a transient failure: retried within the caller's wait, then
 *   reported with how many nodes answered.</li>
 * </ul>
 */
final class RedlockLockStore implements LockStore, LockReads, ForcedRelease, Announcements {

    private final NodeCalls nodes;
    private final Quorum quorum;
    private final StoreCapabilities capabilities = StoreCapabilities.builder().reads(this).forcedRelease(this)
            .announcements(this).failures(RedlockLockStore::classify).build();

    /** Each node must raise fencing tokens, read locks, force releases and keep announcements. */
    RedlockLockStore(List<LockStore> nodes, Duration nodeTimeout) {
        nodes.forEach(RedlockLockStore::requireCapabilities);
        this.nodes = new NodeCalls(nodes, nodeTimeout);
        this.quorum = Quorum.of(nodes.size());
    }

    private static void requireCapabilities(LockStore node) {
        StoreCapabilities offered = node.capabilities();
        if (offered.fenceRaising().isEmpty() || offered.reads().isEmpty() || offered.forcedRelease().isEmpty()
                || offered.announcements().isEmpty()) {
            throw new IllegalArgumentException("A Redlock node must raise fencing tokens, read locks, force releases "
                    + "and keep announcements; " + node.getClass().getSimpleName() + " does not");
        }
    }

    /** What {@code node} offers as {@code capability}: every node offers what this store asks (checked when built). */
    private static <T> T offered(LockStore node, Function<StoreCapabilities, Optional<T>> capability) {
        return capability.apply(node.capabilities()).orElseThrow();
    }

    @Override
    public StoreCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        long sent = System.nanoTime();
        Answers<AcquireResult> answers = nodes.onAll(node -> node.tryAcquire(name, token, leaseMillis, false,
                waiterTimeoutMillis));
        List<Answer<AcquireResult>> taken = answers.matching(AcquireResult::acquired);
        if (quorum.reachedBy(taken.size())) {
            long fence = taken.stream().mapToLong(answer -> answer.value().fencingToken()).max().orElseThrow();
            if (fenceBinding(name, token, fence, taken)
                    && System.nanoTime() < HoldClock.validUntil(sent, leaseMillis)) {
                return AcquireResult.acquired(fence,
                        taken.stream().mapToLong(answer -> answer.value().serverTimeMillis()).max().orElseThrow());
            }
        }
        // not held: release what was taken, everywhere (a node that seemed to fail may have taken it)
        abandon(name, token);
        quorum.require(answers);
        List<AcquireResult> values = answers.values();
        long holderLease = values.stream().filter(result -> !result.acquired())
                .mapToLong(AcquireResult::holderLeaseMillis).filter(lease -> lease >= 0).min().orElse(-1);
        return AcquireResult.busy(holderLease,
                values.stream().mapToLong(AcquireResult::serverTimeMillis).max().orElse(0));
    }

    /**
     * Makes {@code fence}, the largest token of the majority, the last one of every node that issued a smaller
     * one: so each node of this majority issues larger tokens from now on, and any later majority (which
     * shares a node with this one) gives a later holder a larger token, whatever the nodes' clocks say.
     *
     * @return whether a majority holds the lock with {@code fence} as its last token
     */
    private boolean fenceBinding(String name, String token, long fence, List<Answer<AcquireResult>> taken) {
        List<Integer> behind = taken.stream().filter(answer -> answer.value().fencingToken() < fence)
                .map(Answer::node).toList();
        int bound = taken.size() - behind.size();
        if (behind.isEmpty()) {
            return quorum.reachedBy(bound);
        }
        Answers<Boolean> raised = nodes.on(behind,
                node -> offered(node, StoreCapabilities::fenceRaising).raiseFence(name, token, fence));
        return quorum.reachedBy(bound + raised.matching(Boolean::booleanValue).size());
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return trueOnMajority(node -> node.release(name, token, fencingToken));
    }

    @Override
    public void abandon(String name, String token) {
        nodes.onAll(node -> {
            node.abandon(name, token);
            return Boolean.TRUE;
        });
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return trueOnMajority(node -> node.extend(name, token, leaseMillis));
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return trueOnMajority(node -> node.renew(name, token, leaseMillis));
    }

    /** Whether a majority answered true; false if a majority answered but not so; fails without a majority. */
    private boolean trueOnMajority(Function<LockStore, Boolean> call) {
        Answers<Boolean> answers = nodes.onAll(call);
        if (quorum.reachedBy(answers.matching(Boolean::booleanValue).size())) {
            return true;
        }
        quorum.require(answers);
        return false;
    }

    /**
     * On every node, each of which ends the hold only if its own token is {@code fencingToken}: the nodes of the
     * holder's majority were all made to keep the majority's largest token, which is the hold's. Whether a majority
     * ended it; a node that kept a smaller token for the hold (its raise failed) keeps it until its lease runs out, which
     * cannot give the lock to anyone without a majority.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return trueOnMajority(node -> offered(node, StoreCapabilities::forcedRelease).forceRelease(name, fencingToken));
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        Answers<Long> answers = nodes.onAll(node -> node.remainingLeaseMillis(name, token));
        List<Long> held = new ArrayList<>(answers.values(millis -> millis >= 0));
        if (!quorum.reachedBy(held.size())) {
            quorum.require(answers);
            return -1;
        }
        // the lease a majority still has: the quorum-th longest
        held.sort(Collections.reverseOrder());
        return held.get(quorum.size() - 1);
    }

    @Override
    public boolean isLocked(String name) {
        return trueOnMajority(node -> offered(node, StoreCapabilities::reads).isLocked(name));
    }

    /**
     * The hold a majority of the nodes agree on (its largest fencing token, its shortest lease), or a free lock. No
     * waiters, counted or listed: this store never queues on its nodes (its waiters poll), so no node's queue says
     * who waits, and nodes that disagree are not merged into an order that none of them kept.
     */
    @Override
    public LockSnapshot inspect(String name) {
        Answers<LockSnapshot> answers = nodes.onAll(node -> offered(node, StoreCapabilities::reads).inspect(name));
        quorum.require(answers);
        Map<String, List<LockSnapshot>> byOwner = new HashMap<>();
        answers.values(snapshot -> snapshot.ownerToken() != null)
                .forEach(snapshot -> byOwner.computeIfAbsent(snapshot.ownerToken(), owner -> new ArrayList<>())
                        .add(snapshot));
        return byOwner.values().stream().filter(held -> quorum.reachedBy(held.size())).findFirst()
                .map(held -> new LockSnapshot(held.get(0).ownerToken(),
                        held.stream().mapToLong(LockSnapshot::fencingToken).max().orElse(0),
                        held.stream().mapToLong(LockSnapshot::remainingLeaseMillis).min().orElse(0), 0))
                .orElse(new LockSnapshot(null, 0, 0, 0));
    }

    @Override
    public void announce(String instance, Map<String, String> description, long ttlMillis) {
        nodes.onAll(node -> {
            offered(node, StoreCapabilities::announcements).announce(instance, description, ttlMillis);
            return Boolean.TRUE;
        });
    }

    @Override
    public Map<String, String> announcement(String instance) {
        return nodes.onAll(node -> offered(node, StoreCapabilities::announcements).announcement(instance)).values()
                .stream()
                .filter(map -> !map.isEmpty()).findFirst().orElse(Map.of());
    }

    /**
     * Too few answers is worth another try within the wait (nodes come back, slow ones answer), but always in doubt:
     * a quorum failure says nothing of the nodes that did not answer.
     */
    static StoreFailure classify(RuntimeException failure) {
        return failure instanceof QuorumException ? StoreFailure.IN_DOUBT : StoreFailure.PERMANENT;
    }

    @Override
    public void close() {
        nodes.close();
    }

    /**
     * Fewer than a majority of the nodes answered. Each node's failure is a suppressed exception, not the
     * cause: the message (which names the first one) is what the registry reports.
     */
    static final class QuorumException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        QuorumException(String message, List<Throwable> failures) {
            super(message);
            failures.forEach(this::addSuppressed);
        }
    }
}
