package dev.distlock.samples.inventory.demo;

import dev.distlock.samples.inventory.InventoryService;
import dev.distlock.samples.inventory.Reservation;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/** One instance's share of a round: reservations of random SKUs on several threads, locked or not. */
@Component
@Profile("demo")
class DemoWorkload {

    /** How often progress is reported while a round runs. */
    private static final long PROGRESS_MILLIS = 250;

    private final InventoryService inventory;
    private final UnguardedInventory unguarded;
    private final MeterRegistry meters;

    DemoWorkload(InventoryService inventory, UnguardedInventory unguarded, MeterRegistry meters) {
        this.inventory = inventory;
        this.unguarded = unguarded;
        this.meters = meters;
    }

    /**
     * Runs the round and returns what this instance did and what its meters recorded meanwhile.
     *
     * @param progress told the number of reservations attempted so far, every {@value #PROGRESS_MILLIS} ms
     * @param firstFailure told the first failure of the round, if any
     */
    RoundResult run(RoundRequest request, LongConsumer progress, Consumer<Throwable> firstFailure)
            throws InterruptedException {
        RoundResult before = DemoMeters.read(meters);
        AtomicLong attempted = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        LongAccumulator highestFence = new LongAccumulator(Math::max, 0);
        ExecutorService threads = Executors.newFixedThreadPool(request.threads());
        try {
            List<CompletableFuture<Void>> work = new ArrayList<>();
            for (int thread = 0; thread < request.threads(); thread++) {
                int share = request.operations() / request.threads()
                        + (thread < request.operations() % request.threads() ? 1 : 0);
                work.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < share; i++) {
                        attempted.incrementAndGet();
                        try {
                            highestFence.accumulate(reserve(request).fencingToken());
                        } catch (RuntimeException ex) {
                            failed.incrementAndGet();
                            failure.compareAndSet(null, ex);
                        }
                    }
                }, threads));
            }
            awaitReporting(CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)), progress, attempted);
        } finally {
            threads.shutdownNow();
        }
        if (failure.get() != null) {
            firstFailure.accept(failure.get());
        }
        return DemoMeters.read(meters).since(before).withWorkload(attempted.get(), failed.get(), highestFence.get());
    }

    private Reservation reserve(RoundRequest request) {
        String sku = request.skus().get(ThreadLocalRandom.current().nextInt(request.skus().size()));
        return request.locked() ? inventory.reserve(sku, 1) : unguarded.reserve(sku, 1);
    }

    private static void awaitReporting(CompletableFuture<Void> done, LongConsumer progress, AtomicLong attempted)
            throws InterruptedException {
        while (true) {
            try {
                done.get(PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
                progress.accept(attempted.get());
                return;
            } catch (TimeoutException stillRunning) {
                progress.accept(attempted.get());
            } catch (ExecutionException ex) {
                throw new IllegalStateException("a worker thread failed", ex.getCause());
            }
        }
    }
}
