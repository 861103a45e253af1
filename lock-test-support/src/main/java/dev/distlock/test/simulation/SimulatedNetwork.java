package dev.distlock.test.simulation;

import dev.distlock.core.spi.StoreFailure;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The simulated network between the registries and the store: a command runs at the store after one latency and is
 * answered after another, as tasks of the {@link VirtualScheduler}, unless a fault of the {@link Faults} is drawn for
 * it; a notice arrives after one latency, unless it is lost.
 */
final class SimulatedNetwork {

    private final VirtualScheduler scheduler;
    private final SplittableRandom random;
    private final Trace trace;
    private Faults faults;

    SimulatedNetwork(VirtualScheduler scheduler, Faults faults, Trace trace) {
        this.scheduler = scheduler;
        this.faults = faults;
        this.trace = trace;
        this.random = scheduler.split();
    }

    /** From now on, commands and notices meet {@code faults}. */
    void faults(Faults faults) {
        this.faults = faults;
    }

    /** A refusal without running, as Redis's {@code TRYAGAIN} during a slot migration. */
    static final class Refused extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        Refused(String command) {
            super("TRYAGAIN (simulated) " + command);
        }
    }

    /** No reply within the command timeout: the command may have run. */
    static final class TimedOut extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        TimedOut(String command) {
            super("Command timed out (simulated) " + command);
        }
    }

    /** The simulated failures told apart: {@link Refused} refused, {@link TimedOut} in doubt. */
    static StoreFailure classify(RuntimeException failure) {
        if (failure instanceof Refused) {
            return StoreFailure.REFUSED;
        }
        return failure instanceof TimedOut ? StoreFailure.IN_DOUBT : StoreFailure.PERMANENT;
    }

    /** Delivers a notice after one latency, unless it is lost ({@code lost} then traced). */
    void deliverNotice(String lost, Runnable delivery) {
        if (random.nextDouble() < faults.lostNotice()) {
            trace.add(lost);
            return;
        }
        scheduler.after(latency(), null, delivery);
    }

    private long latency() {
        return 50_000 + random.nextLong(1_000_000); // 0.05 to 1.05 ms each way
    }

    /**
     * Sends {@code command}: it runs at the store after one latency and is answered after another, unless a fault
     * is drawn for it.
     */
    <T> CompletionStage<T> send(String description, Supplier<T> command) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        long timeout = faults.commandTimeout().toNanos();
        double draw = random.nextDouble();
        Faults f = faults;
        if ((draw -= f.refused()) < 0) {
            scheduler.after(2 * latency(), null, () -> {
                trace.add("refused: " + description);
                answer.completeExceptionally(new Refused(description));
            });
        } else if ((draw -= f.lostReply()) < 0) {
            scheduler.after(latency(), null, () -> {
                trace.add("reply lost: " + description);
                command.get();
            });
            scheduler.after(timeout, null, () -> answer.completeExceptionally(new TimedOut(description)));
        } else if ((draw -= f.notRun()) < 0) {
            trace.add("not run: " + description);
            scheduler.after(timeout, null, () -> answer.completeExceptionally(new TimedOut(description)));
        } else if ((draw -= f.replayed()) < 0) {
            long reconnect = latency() + random.nextLong(Math.max(1, timeout / 2));
            scheduler.after(latency(), null, () -> {
                trace.add("ran, reply lost, replay follows: " + description);
                command.get();
            });
            scheduler.after(reconnect, null, () -> {
                T replayed = command.get();
                trace.add("replayed: " + description + " -> " + replayed);
                scheduler.after(latency(), null, () -> answer.complete(replayed));
            });
        } else {
            boolean late = draw - f.late() < 0;
            long back = late ? latency() + random.nextLong(Math.max(1, timeout * 9 / 10)) : latency();
            scheduler.after(latency(), null, () -> {
                T result = command.get();
                scheduler.after(back, null, () -> answer.complete(result));
            });
        }
        return answer;
    }
}
