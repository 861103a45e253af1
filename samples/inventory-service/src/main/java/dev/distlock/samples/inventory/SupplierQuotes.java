package dev.distlock.samples.inventory;

import dev.distlock.annotation.DistributedLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Restocking prices from the supplier, whose API takes at most {@link #SUPPLIER_CALLS} calls at once from the whole
 * service: each call holds one of the leased permits of the semaphore {@link #SUPPLIER}, whichever instance makes it,
 * and a call that finds none free within the timeout fails instead of overloading the supplier. A crashed instance's
 * permit comes back when its lease ends. The supplier is simulated: it answers after
 * {@code inventory.supplier.latency}.
 */
@Component
public class SupplierQuotes {

    /** The semaphore's name. */
    public static final String SUPPLIER = "supplier-api";
    /** How many calls the supplier takes at once. */
    public static final int SUPPLIER_CALLS = 2;

    private final Duration latency;
    /** When each call of this instance began and ended ({@link System#nanoTime()}), for the demo and the tests. */
    private final List<long[]> calls = new ArrayList<>();

    public SupplierQuotes(@Value("${inventory.supplier.latency:200ms}") Duration latency) {
        this.latency = latency;
    }

    /** The supplier's price of {@code sku} in cents. */
    @DistributedLock(name = SUPPLIER, permits = SUPPLIER_CALLS, timeout = "${inventory.supplier.timeout:10s}")
    public long quote(String sku) throws InterruptedException {
        long began = System.nanoTime();
        Thread.sleep(latency.toMillis()); // the supplier's round trip
        synchronized (calls) {
            calls.add(new long[] {began, System.nanoTime()});
        }
        return 100 + Math.floorMod(sku.hashCode(), 900);
    }

    /** When each call of this instance began and ended, in {@link System#nanoTime()}. */
    public List<long[]> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }
}
