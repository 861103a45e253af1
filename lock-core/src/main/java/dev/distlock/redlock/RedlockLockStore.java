package dev.distlock.redlock;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.Grant;
import dev.distlock.core.support.LockSnapshot;
import dev.distlock.core.support.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Redlock algorithm as a {@link LockStore} over N independent Redis servers (N odd): every operation runs
 * on all of them in parallel, each call bounded by a short node timeout, and counts only with a majority.
 *
 * <ul>
 *   <li>an acquisition sets the same token on every node; it holds if a majority took it and the time that
 *   took leaves validity (lease − elapsed − drift); otherwise it is released again on every node, also those
 *   that seemed to fail, and the caller retries after the poll pause (no queue: waiters poll);</li>
 *   <li>a renewal or {@code extend} counts if a majority extended it; a release releases on every node;</li>
 *   <li>the fencing token is the largest a majority issued: each node's is at least its clock in µs, so tokens
 *   grow across holders as long as the nodes' clocks agree better than the time between two acquisitions
 *   (best-effort, see the README);</li>
 *   <li>too few answers (nodes down or slow) is a transient failure: retried within the caller's wait, then
 *   reported with how many nodes answered.</li>
 * </ul>
 */
final class RedlockLockStore implements LockStore {

    private final List<LockStore> nodes;
    private final int quorum;
    private final long nodeTimeoutNanos;
    private final ExecutorService calls;

    RedlockLockStore(List<LockStore> nodes, Duration nodeTimeout) {
        this.nodes = List.copyOf(nodes);
        this.quorum = nodes.size() / 2 + 1;
        this.nodeTimeoutNanos = nodeTimeout.toNanos();
        AtomicInteger count = new AtomicInteger();
        this.calls = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "distlock-redlock-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        long start = System.nanoTime();
        Answers<AcquireResult> answers = onEveryNode(node -> node.tryAcquire(name, token, leaseMillis, false,
                waiterTimeoutMillis));
        List<AcquireResult> taken = answers.matching(AcquireResult::acquired);
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        long validityMillis = leaseMillis - elapsedMillis - (leaseMillis / 100 + 2);
        if (taken.size() >= quorum && validityMillis > 0) {
            long fence = taken.stream().mapToLong(AcquireResult::fencingToken).max().orElseThrow();
            long serverTime = taken.stream().mapToLong(AcquireResult::serverTimeMillis).max().orElseThrow();
            return AcquireResult.acquired(fence, serverTime);
        }
        // not held: release what was taken, everywhere (a node that seemed to fail may have taken it)
        abandon(name, token);
        answers.requireQuorum(name, "acquire");
        long holderLease = answers.values().stream().filter(result -> !result.acquired())
                .mapToLong(AcquireResult::holderLeaseMillis).filter(lease -> lease >= 0).min().orElse(-1);
        return AcquireResult.busy(holderLease,
                answers.values().stream().mapToLong(AcquireResult::serverTimeMillis).max().orElse(0));
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        // nothing is queued on Redlock; whatever a try left behind is released
        abandon(name, token);
        return AcquireResult.busy(-1, 0);
    }

    @Override
    public boolean release(String name, String token) {
        Answers<Boolean> answers = onEveryNode(node -> node.release(name, token));
        if (answers.matching(Boolean::booleanValue).size() >= quorum) {
            return true;
        }
        answers.requireQuorum(name, "release");
        return false;
    }

    @Override
    public void abandon(String name, String token) {
        onEveryNode(node -> {
            node.abandon(name, token);
            return Boolean.TRUE;
        });
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        Answers<Boolean> answers = onEveryNode(node -> node.extend(name, token, leaseMillis));
        if (answers.matching(Boolean::booleanValue).size() >= quorum) {
            return true;
        }
        answers.requireQuorum(name, "renew");
        return false;
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        Answers<Long> answers = onEveryNode(node -> node.remainingLeaseMillis(name, token));
        List<Long> held = new ArrayList<>(answers.matching(millis -> millis >= 0));
        if (held.size() < quorum) {
            answers.requireQuorum(name, "read the remaining lease");
            return -1;
        }
        // the lease a majority still has: the quorum-th longest
        held.sort(Collections.reverseOrder());
        return held.get(quorum - 1);
    }

    @Override
    public boolean isLocked(String name) {
        Answers<Boolean> answers = onEveryNode(node -> node.isLocked(name));
        answers.requireQuorum(name, "check the lock");
        return answers.matching(Boolean::booleanValue).size() >= quorum;
    }

    @Override
    public LockSnapshot inspect(String name) {
        Answers<LockSnapshot> answers = onEveryNode(node -> node.inspect(name));
        answers.requireQuorum(name, "inspect the lock");
        Map<String, List<LockSnapshot>> byOwner = new HashMap<>();
        answers.matching(snapshot -> snapshot.ownerToken() != null)
                .forEach(snapshot -> byOwner.computeIfAbsent(snapshot.ownerToken(), owner -> new ArrayList<>())
                        .add(snapshot));
        return byOwner.values().stream().filter(held -> held.size() >= quorum).findFirst()
                .map(held -> new LockSnapshot(held.get(0).ownerToken(),
                        held.stream().mapToLong(LockSnapshot::fencingToken).max().orElse(0),
                        held.stream().mapToLong(LockSnapshot::remainingLeaseMillis).min().orElse(0), 0))
                .orElse(new LockSnapshot(null, 0, 0, 0));
    }

    @Override
    public void announce(String instance, Map<String, String> description, long ttlMillis) {
        onEveryNode(node -> {
            node.announce(instance, description, ttlMillis);
            return Boolean.TRUE;
        });
    }

    @Override
    public Map<String, String> announcement(String instance) {
        return onEveryNode(node -> node.announcement(instance)).values().stream().filter(map -> !map.isEmpty())
                .findFirst().orElse(Map.of());
    }

    /** Too few answers is worth another try within the wait: nodes come back, slow ones answer. */
    @Override
    public boolean isTransient(RuntimeException failure) {
        return failure instanceof QuorumException;
    }

    /** Redlock has no hand-offs: waiters poll, and need not wait for a subscription. */
    @Override
    public CompletableFuture<Void> listen() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean listening() {
        return true;
    }

    @Override
    public Subscription onGrant(String name, String token, Consumer<Grant> onGrant) {
        return () -> { };
    }

    @Override
    public void close() {
        calls.shutdownNow();
        nodes.forEach(LockStore::close);
    }

    /** Runs {@code call} on every node in parallel; collects the answers that came within the node timeout. */
    private <T> Answers<T> onEveryNode(Function<LockStore, T> call) {
        List<Future<T>> futures = new ArrayList<>(nodes.size());
        for (LockStore node : nodes) {
            futures.add(calls.submit(() -> call.apply(node)));
        }
        long deadline = System.nanoTime() + nodeTimeoutNanos;
        Answers<T> answers = new Answers<>(nodes.size(), quorum);
        for (Future<T> future : futures) {
            try {
                answers.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException failed) {
                answers.fail(failed.getCause());
            } catch (TimeoutException slow) {
                future.cancel(true);
                answers.fail(new TimeoutException("no answer within the node timeout of "
                        + Duration.ofNanos(nodeTimeoutNanos)));
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                future.cancel(true);
                answers.fail(ex);
            }
        }
        return answers;
    }

    /** What the nodes answered, and what went wrong on the others. */
    private static final class Answers<T> {

        private final int nodes;
        private final int quorum;
        private final List<T> values = new ArrayList<>();
        private final List<Throwable> failures = new ArrayList<>();

        Answers(int nodes, int quorum) {
            this.nodes = nodes;
            this.quorum = quorum;
        }

        void add(T value) {
            values.add(value);
        }

        void fail(Throwable failure) {
            failures.add(failure);
        }

        List<T> values() {
            return values;
        }

        List<T> matching(java.util.function.Predicate<T> condition) {
            return values.stream().filter(condition).toList();
        }

        /** Fails if fewer nodes than a majority answered, saying how many did and why the others did not. */
        void requireQuorum(String name, String operation) {
            if (values.size() < quorum) {
                throw new QuorumException("Redlock: could not " + operation + " lock '" + name + "' on a majority: "
                        + values.size() + " of " + nodes + " nodes answered, " + quorum + " needed; first failure: "
                        + (failures.isEmpty() ? "none" : dev.distlock.core.LockBackendException
                                .innermostMessage(failures.get(0))), failures.isEmpty() ? null : failures.get(0));
            }
        }
    }

    /** Fewer than a majority of the nodes answered. */
    static final class QuorumException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        QuorumException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
