package dev.distlock.redlock;

import dev.distlock.core.runtime.DaemonThreads;
import dev.distlock.core.spi.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Redlock's nodes and the calls to them: one call runs on the nodes in parallel, on threads of its own, and
 * what each node answered within the node timeout is collected in {@link Answers}; a node that failed, did
 * not answer in time or was interrupted counts as a failure. Closing it stops the threads and closes the nodes.
 */
final class NodeCalls implements AutoCloseable {

    private final List<LockStore> nodes;
    private final List<Integer> all;
    private final long nodeTimeoutNanos;
    private final ExecutorService calls;

    NodeCalls(List<LockStore> nodes, Duration nodeTimeout) {
        this.nodes = List.copyOf(nodes);
        this.all = IntStream.range(0, nodes.size()).boxed().toList();
        this.nodeTimeoutNanos = nodeTimeout.toNanos();
        this.calls = Executors.newCachedThreadPool(DaemonThreads.factory("distlock-redlock-"));
    }

    /** Runs {@code call} on every node; see {@link #on}. */
    <T> Answers<T> onAll(Function<LockStore, T> call) {
        return on(all, call);
    }

    /** Runs {@code call} on the given nodes in parallel; collects the answers that came within the node timeout. */
    <T> Answers<T> on(List<Integer> indexes, Function<LockStore, T> call) {
        List<Future<T>> futures = new ArrayList<>(indexes.size());
        for (int index : indexes) {
            LockStore node = nodes.get(index);
            futures.add(calls.submit(() -> call.apply(node)));
        }
        long deadline = System.nanoTime() + nodeTimeoutNanos;
        Answers<T> answers = new Answers<>();
        for (int i = 0; i < futures.size(); i++) {
            Future<T> future = futures.get(i);
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                answers.add(indexes.get(i), future.get(left, TimeUnit.NANOSECONDS));
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

    @Override
    public void close() {
        calls.shutdownNow();
        nodes.forEach(LockStore::close);
    }
}
