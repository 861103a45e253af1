package dev.distlock.samples.inventory;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.LockTimeoutException;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves units from one SKU to another (say, a product relabelled). It needs the locks of both SKUs, which
 * one annotation cannot express, so it takes them by hand from the {@link LockRegistry}: always in name
 * order, so that two opposite transfers cannot each hold one lock and wait for the other.
 */
@Service
public class StockTransfers {

    /** The locks' label in meters and in the {@code distlocks} endpoint. */
    public static final String TRANSFER_LOCK = "StockTransfers.transfer";

    private final LockRegistry locks;
    private final StockLedger ledger;
    private final TransactionTemplate transaction;
    private final Duration wait;

    public StockTransfers(LockRegistry locks, StockLedger ledger, TransactionTemplate transaction,
            @Value("${inventory.reserve-timeout:5s}") Duration wait) {
        this.locks = locks;
        this.ledger = ledger;
        this.transaction = transaction;
        this.wait = wait;
    }

    /**
     * Moves {@code quantity} units from {@code from} to {@code to} in one transaction, holding both SKUs'
     * locks (the same ones {@link InventoryService#reserve} takes) until it has committed.
     *
     * @throws OutOfStockException if {@code from} has fewer units on hand
     * @throws LockTimeoutException if a lock stayed held by others longer than {@code inventory.reserve-timeout}
     * @throws InterruptedException if interrupted while waiting for a lock
     */
    public void transfer(String from, String to, int quantity) throws InterruptedException {
        if (from.equals(to) || quantity < 1) {
            throw new IllegalArgumentException("a transfer moves at least 1 unit between two SKUs, got "
                    + quantity + " from " + from + " to " + to);
        }
        FencedLock fromLock = lockOf(from);
        FencedLock toLock = lockOf(to);
        // in name order whatever the direction: a-to-b and b-to-a both lock a first
        FencedLock first = from.compareTo(to) < 0 ? fromLock : toLock;
        FencedLock second = first == fromLock ? toLock : fromLock;
        acquire(first);
        try {
            acquire(second);
            try {
                transaction.executeWithoutResult(status -> ledger.transfer(from, to, quantity,
                        fromLock.fencingToken(), toLock.fencingToken()));
            } finally {
                second.unlock();
            }
        } finally {
            first.unlock();
        }
    }

    private FencedLock lockOf(String sku) {
        return locks.obtain("sku:" + sku, Lease.renewed(), TRANSFER_LOCK);
    }

    private void acquire(FencedLock lock) throws InterruptedException {
        if (!lock.tryLock(wait)) {
            throw new LockTimeoutException(lock.name(), wait);
        }
    }
}
