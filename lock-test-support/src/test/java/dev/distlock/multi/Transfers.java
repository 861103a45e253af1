package dev.distlock.multi;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Transfers between two accounts under one lock on both names, listed from-then-to (so half the callers list them
 * in the opposite order), by several threads until a deadline. Each transfer reads both balances and writes both
 * back: without the lock, concurrent transfers lose updates and the total drifts.
 */
final class Transfers {

    static final List<String> ACCOUNTS = List.of("account:a", "account:b");
    /** Long against a transfer: a wait that runs out means the names were not handed on (a deadlock). */
    static final Duration WAIT = Duration.ofSeconds(20);

    /** The accounts' balances, read and written separately. */
    interface Balances {

        long read(String account);

        void write(String account, long balance);
    }

    /** What the threads did. */
    record Outcome(long transfers, long timeouts, long errors, String firstError) {

        @Override
        public String toString() {
            return transfers + " " + timeouts + " " + errors + (firstError != null ? " " + firstError : "");
        }
    }

    private Transfers() {
    }

    /** Runs {@code threads} threads of transfers on {@code registry} for {@code duration}; waits for them all. */
    static Outcome run(LockRegistry registry, Balances balances, int threads, Duration duration)
            throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        AtomicLong transfers = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        StringBuilder firstError = new StringBuilder();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                while (System.nanoTime() - deadline < 0) {
                    try {
                        if (transferOnce(registry, balances)) {
                            transfers.incrementAndGet();
                        } else {
                            timeouts.incrementAndGet();
                        }
                    } catch (RuntimeException | InterruptedException failure) {
                        errors.incrementAndGet();
                        synchronized (firstError) {
                            if (firstError.isEmpty()) {
                                firstError.append(failure);
                            }
                        }
                        if (failure instanceof InterruptedException) {
                            return;
                        }
                    }
                }
            }, "transfers-" + i);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join(duration.plus(WAIT).plusSeconds(30).toMillis());
            if (worker.isAlive()) {
                errors.incrementAndGet();
                firstError.append(" ").append(worker.getName()).append(" still running after its deadline");
            }
        }
        return new Outcome(transfers.get(), timeouts.get(), errors.get(),
                firstError.isEmpty() ? null : firstError.toString().replace('\n', ' '));
    }

    /** One transfer of 1 to 10 in a random direction; whether it got both names within {@link #WAIT}. */
    private static boolean transferOnce(LockRegistry registry, Balances balances) throws InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        boolean forwards = random.nextBoolean();
        String from = ACCOUNTS.get(forwards ? 0 : 1);
        String to = ACCOUNTS.get(forwards ? 1 : 0);
        long amount = 1 + random.nextInt(10);
        FencedLock both = registry.obtainAll(List.of(from, to));
        if (!both.tryLock(WAIT)) {
            return false;
        }
        try {
            long fromBalance = balances.read(from);
            long toBalance = balances.read(to);
            balances.write(from, fromBalance - amount);
            balances.write(to, toBalance + amount);
        } finally {
            both.unlock();
        }
        return true;
    }
}
