package dev.distlock.test.simulation;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.HoldKind;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One non-blocking caller of a simulated process: in a loop, it takes one name or two ({@code tryLockAsync} with a
 * wait drawn from the seed, sometimes cancelled), works inside (its process sometimes pausing), writes to the
 * {@link FencedResource} if it still believes it holds, and gives the lock back ({@code unlockAsync}). Each call is
 * checked against its bound and its outcome against what the store really did.
 */
final class SimCaller extends SimulatedCaller {

    private CompletableFuture<?> pending;
    private String pendingWhat = "";

    SimCaller(Simulation simulation, SimProcess process, ScriptedLockRegistry registry, String id, long endNanos) {
        super(simulation, process, registry, id, endNanos);
    }

    @Override
    boolean idle() {
        return pending == null || pending.isDone();
    }

    @Override
    String pending() {
        return pendingWhat;
    }

    private VirtualScheduler scheduler() {
        return simulation.scheduler();
    }

    /** Starts the next call, unless the callers stopped. */
    void nextCall() {
        if (stopped || scheduler().nanoTime() >= endNanos) {
            return;
        }
        Scenario scenario = simulation.scenario();
        List<String> names = Verdicts.pickNames(simulation.names(), scenario.setChance(), random);
        Lease lease = random.nextBoolean() ? Lease.fixed(scenario.lease()) : Lease.renewed();
        HoldKind kind = scenario.readWriteChance() > 0 && random.nextDouble() < scenario.readWriteChance()
                ? (random.nextInt(4) == 0 ? HoldKind.WRITE : HoldKind.READ) : HoldKind.LOCK;
        List<String> taken = kind == HoldKind.LOCK ? names : List.of("rw:" + names.get(0));
        FencedLock lock = switch (kind) {
            case READ -> registry.readWriteLock(taken.get(0), lease, null).readLock();
            case WRITE -> registry.readWriteLock(taken.get(0), lease, null).writeLock();
            default -> names.size() == 1 ? registry.obtain(names.get(0), lease)
                    : registry.obtainAll(names, lease, null);
        };
        long wait = random.nextInt(4) == 0 ? 0 : random.nextLong(scenario.maxWait().toNanos());
        CompletableFuture<DetachedLock> call = lock.tryLockAsync(Duration.ofNanos(wait)).toCompletableFuture();
        String what = (kind == HoldKind.LOCK ? "" : kind.tag() + " ") + taken;
        track(call, "tryLockAsync(" + what + ", " + wait / 1_000_000 + " ms)",
                Verdicts.acquireBound(wait, taken.size(), scenario.faults().commandTimeout()));
        boolean cancels = random.nextDouble() < scenario.faults().cancel();
        if (cancels) {
            scheduler().after(random.nextLong(wait + 1), process, () -> call.cancel(false));
        }
        boolean shared = kind == HoldKind.READ;
        call.whenComplete((hold, failure) -> {
            boolean answeredOpen = !stopped;
            scheduler().soon(process, () -> acquired(taken, shared, hold, failure, cancels, answeredOpen));
        });
    }

    /**
     * @param shared whether {@code hold} is a read, which other reads may share
     * @param answeredOpen whether the answer came while the registry was open
     */
    private void acquired(List<String> names, boolean shared, DetachedLock hold, Throwable failure,
            boolean cancelled, boolean answeredOpen) {
        Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
        if (cause != null) {
            verdicts.acquireFailed("tryLockAsync(" + names + ")", cause, cancelled);
            pause();
            return;
        }
        if (hold == null) {
            simulation.event(id + " timed out on " + names);
            pause();
            return;
        }
        holds++;
        simulation.event(id + " holds " + names + " " + hold.fencingTokens());
        if (!hold.isHeld() && !(answeredOpen && givenBackByClose(hold))) {
            simulation.violation(id + "'s tryLockAsync(" + names + ") answered with a hold it no longer holds");
        }
        FencedResource.Holder holder = FencedResource.Holder.of(hold);
        simulation.resource().enter(id, names, shared, holder);
        if (random.nextDouble() < simulation.scenario().faults().pause()) {
            long pause = random.nextLong(2 * simulation.scenario().lease().toNanos());
            simulation.event(process.id + " pauses for " + pause / 1_000_000 + " ms");
            process.pause(pause);
        }
        scheduler().after(random.nextLong(1_000_000, 100_000_000), process,
                () -> release(names, shared, hold, holder));
    }

    private void release(List<String> names, boolean shared, DetachedLock hold, FencedResource.Holder holder) {
        simulation.resource().writeAndLeave(id, names, shared, holder);
        CompletableFuture<Void> call = hold.unlockAsync().toCompletableFuture();
        Scenario scenario = simulation.scenario();
        track(call, "unlockAsync(" + names + ")",
                2 * scenario.lease().toNanos() + 2 * scenario.faults().commandTimeout().toNanos());
        call.whenComplete((done, failure) -> scheduler().soon(process, () -> released(names, hold, failure)));
    }

    private void released(List<String> names, DetachedLock hold, Throwable failure) {
        Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
        verdicts.released("unlockAsync(" + names + ")", hold.fencingTokens(), cause);
        pause();
    }

    /**
     * Whether {@code hold} was given back by its registry's close, which its process made after the answer came (while
     * the registry was open) and before this caller, paused with it, could look: a loss, not a hold answered lost.
     */
    private boolean givenBackByClose(DetachedLock hold) {
        CompletableFuture<LockLostException> end = hold.whenEnded().toCompletableFuture();
        return stopped && end.isDone() && end.join() != null && end.join().reason().contains("registry was closed");
    }

    /** A think time, then the next call. */
    private void pause() {
        scheduler().after(random.nextLong(1_000_000, 50_000_000), process, this::nextCall);
    }

    /** Watches {@code call}: it must end within {@code boundNanos}, plus the time its process was paused. */
    private void track(CompletableFuture<?> call, String what, long boundNanos) {
        pending = call;
        pendingWhat = what;
        long start = scheduler().nanoTime();
        long pausedBefore = process.pausedNanos();
        Runnable[] check = new Runnable[1];
        check[0] = () -> {
            if (call.isDone()) {
                return;
            }
            long deadline = start + boundNanos + Verdicts.SLACK_NANOS + (process.pausedNanos() - pausedBefore);
            if (scheduler().nanoTime() < deadline || process.isPaused()) {
                scheduler().after(Math.max(1, deadline - scheduler().nanoTime()), null, check[0]);
                return;
            }
            simulation.violation(id + "'s " + what + " did not end within "
                    + Duration.ofNanos(scheduler().nanoTime() - start).toMillis() + " ms");
        };
        scheduler().after(boundNanos + Verdicts.SLACK_NANOS, null, check[0]);
    }

}
