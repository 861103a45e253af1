package dev.distlock.test.simulation;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One blocking caller of a simulated process, a thread of its own ({@link SimThreads}): in a loop, it takes one name
 * or two with {@code tryLock(wait)}, in some rounds first one of the two alone and then both inside that hold
 * (re-entering it), works inside (its process sometimes pausing), writes to the {@link FencedResource} if it still
 * believes it holds, and unlocks. Its application interrupts it now and then during a call, at a moment drawn from
 * the seed. Each call is judged on the thread when it returns: its outcome ({@link Verdicts}), its time, its
 * interrupt flag (an interrupt is the answer of the call it was sent to only), and what it left of an outer hold.
 */
final class BlockingCaller extends SimulatedCaller {

    private final SimThreads.SimThread thread;
    /** The number of the call under way (0 between calls), the last one started, and the last one interrupted. */
    private int call;
    private int calls;
    private int interruptedCall;
    private String doing = "";

    BlockingCaller(Simulation simulation, SimProcess process, ScriptedLockRegistry registry, String id,
            long endNanos) {
        super(simulation, process, registry, id, endNanos);
        this.thread = simulation.threads().start(id, process, this::loop);
    }

    @Override
    boolean idle() {
        return thread.finished();
    }

    @Override
    String pending() {
        return doing;
    }

    private long now() {
        return simulation.scheduler().nanoTime();
    }

    private void loop() {
        while (!stopped && now() < endNanos) {
            round();
            work(random.nextLong(1_000_000, 50_000_000));
        }
    }

    /** One name or two; with two, in some rounds one of them first, alone, and both inside that hold. */
    private void round() {
        Scenario scenario = simulation.scenario();
        List<String> names = Verdicts.pickNames(simulation.names(), scenario.setChance(), random);
        Lease lease = random.nextBoolean() ? Lease.fixed(scenario.lease()) : Lease.renewed();
        String outerName = names.size() == 2 && random.nextBoolean() ? names.get(random.nextInt(2)) : null;
        FencedLock outer = outerName != null ? registry.obtain(outerName, lease) : null;
        Holding outerHolding = null;
        if (outer != null) {
            outerHolding = acquire(outer, 1, List.of(outerName), null, null);
            if (outerHolding == null) {
                return;
            }
        }
        FencedLock lock = names.size() == 1 ? registry.obtain(names.get(0), lease)
                : registry.obtainAll(names, lease, null);
        List<String> fresh = names.stream().filter(name -> !name.equals(outerName)).toList();
        Holding holding = acquire(lock, names.size(), fresh, outer, outerName);
        if (holding != null) {
            if (outerName != null && holding.fencingToken(outerName) != outerHolding.fencingToken(outerName)) {
                simulation.violation(id + " re-entered '" + outerName + "' with another fencing token: "
                        + holding.fencingToken(outerName) + ", its hold's " + outerHolding.fencingToken(outerName));
            }
            work(random.nextLong(1_000_000, 100_000_000));
            release(lock, fresh, holding);
        }
        if (outer != null) {
            int count = outer.holdCount();
            if (count != 1) {
                simulation.violation(id + "'s hold of '" + outerName + "' counts " + count
                        + " after its call on " + names + " ended (" + (holding != null ? "held" : "not taken") + ")");
            }
            work(random.nextLong(1_000_000, 20_000_000));
            release(outer, List.of(outerName), outerHolding);
        }
    }

    /**
     * {@code lock.tryLock(wait)} on {@code names} names, judged: the holding if it was taken ({@code entered} then
     * entering the resource), else {@code null}. Inside a hold of {@code outer} on {@code outerName}, the call may find
     * that hold lost.
     */
    private Holding acquire(FencedLock lock, int names, List<String> entered, FencedLock outer, String outerName) {
        Scenario scenario = simulation.scenario();
        long wait = random.nextInt(4) == 0 ? 0 : random.nextLong(scenario.maxWait().toNanos());
        String what = "tryLock(" + lock.name() + ", " + wait / 1_000_000 + " ms)";
        long bound = Verdicts.acquireBound(wait, names, scenario.faults().commandTimeout());
        int number = begin(what, bound);
        long start = now();
        long pausedBefore = process.pausedNanos();
        boolean taken = false;
        Exception failure = null;
        try {
            taken = lock.tryLock(Duration.ofNanos(wait));
        } catch (InterruptedException | RuntimeException e) {
            failure = e;
        }
        end(number, what, start, pausedBefore, bound, failure);
        if (failure instanceof InterruptedException) {
            simulation.event(id + "'s " + what + " ended by its interrupt");
        } else if (failure instanceof LockLostException lost && outer != null
                && lost.getLockName().equals(outerName) && !outer.isHeldByCurrentThread()) {
            simulation.event(id + "'s " + what + " found its hold of '" + outerName + "' lost");
        } else if (failure != null) {
            verdicts.acquireFailed(what, failure, false);
        }
        if (failure != null) {
            return null;
        }
        if (!taken) {
            simulation.event(id + " timed out on " + lock.name());
            return null;
        }
        holds++;
        Map<String, Long> tokens = lock.fencingTokens();
        simulation.event(id + " holds " + lock.name() + " " + tokens
                + (outer != null ? " inside its hold of '" + outerName + "'" : ""));
        if (!lock.isHeldByCurrentThread() && !verdicts.stopped()) {
            simulation.violation(id + "'s " + what + " answered with a hold it no longer holds");
        }
        Holding holding = new Holding(tokens, Thread.currentThread());
        simulation.resource().enter(id, entered, false, holding);
        if (random.nextDouble() < scenario.faults().pause()) {
            long pause = random.nextLong(2 * scenario.lease().toNanos());
            simulation.event(process.id + " pauses for " + pause / 1_000_000 + " ms");
            process.pause(pause);
            work(0); // the pause holds this thread from here
        }
        return holding;
    }

    /** Writes to the resource's {@code entered} names, leaves them, and {@code lock.unlock()}, judged. */
    private void release(FencedLock lock, List<String> entered, Holding holding) {
        simulation.resource().writeAndLeave(id, entered, false, holding);
        Scenario scenario = simulation.scenario();
        String what = "unlock(" + lock.name() + ")";
        long bound = 2 * scenario.lease().toNanos() + 2 * scenario.faults().commandTimeout().toNanos();
        int number = begin(what, bound);
        long start = now();
        long pausedBefore = process.pausedNanos();
        RuntimeException failure = null;
        try {
            lock.unlock();
        } catch (RuntimeException e) {
            failure = e;
        }
        boolean interrupted = end(number, what, start, pausedBefore, bound, failure);
        if (interrupted && failure instanceof LockBackendException && failure.getCause() == null) {
            // sent again after the interrupt broke its wait, and not answered within the lease: in doubt, as told
            simulation.event(id + "'s " + what + " unanswered after its interrupt: " + failure.getMessage());
        } else {
            verdicts.released(what, holding.tokens, failure);
        }
    }

    /**
     * The resource's view of one hold of this thread: whether the thread believes it holds a name (what
     * {@code isHeldByCurrentThread()} tells it) with this hold's fencing token.
     */
    private final class Holding implements FencedResource.Holder {

        final Map<String, Long> tokens;
        private final Thread owner;

        Holding(Map<String, Long> tokens, Thread owner) {
            this.tokens = tokens;
            this.owner = owner;
        }

        @Override
        public boolean isHeld(String name) {
            return registry.holds(name, owner);
        }

        @Override
        public long fencingToken(String name) {
            return tokens.get(name);
        }
    }

    /** A call begins: with the fault's chance its application interrupts it, at a moment within its bound. */
    private int begin(String what, long boundNanos) {
        int number = ++calls;
        call = number;
        doing = what;
        if (random.nextDouble() < simulation.scenario().faults().interrupt()) {
            long at = random.nextLong(boundNanos + 1);
            simulation.scheduler().after(at, process, () -> {
                if (call == number) {
                    interruptedCall = number;
                    simulation.event(id + " is interrupted during " + what);
                    thread.interrupt();
                }
            });
        }
        return number;
    }

    /**
     * A call ended: it took no longer than its bound (beyond the time its process was paused), and an interrupt
     * reached it (as {@link InterruptedException} or its flag set) if and only if one was sent to it. Returns whether
     * one was.
     */
    private boolean end(int number, String what, long start, long pausedBefore, long boundNanos, Exception failure) {
        boolean flag = Thread.interrupted();
        boolean interrupted = interruptedCall == number;
        call = 0;
        doing = "";
        long took = now() - start;
        if (took > boundNanos + Verdicts.SLACK_NANOS + (process.pausedNanos() - pausedBefore)) {
            simulation.violation(id + "'s " + what + " took " + took / 1_000_000 + " ms");
        }
        if (!interrupted && (flag || failure instanceof InterruptedException)) {
            simulation.violation(id + "'s " + what + (flag ? " returned with its interrupt flag set" : " threw "
                    + failure) + ", but nobody interrupted it");
        } else if (interrupted && !flag && !(failure instanceof InterruptedException)) {
            simulation.violation(id + "'s " + what + " lost the interrupt sent to it (no InterruptedException, no flag)");
        }
        return interrupted;
    }

    /** Works (or thinks) for {@code nanos} of virtual time: a simulated wait of its thread. */
    private void work(long nanos) {
        try {
            thread.sleep(nanos);
        } catch (InterruptedException interrupt) {
            simulation.violation(id + " was interrupted outside its calls");
        }
    }
}
