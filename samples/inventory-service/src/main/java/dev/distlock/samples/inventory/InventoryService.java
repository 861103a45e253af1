package dev.distlock.samples.inventory;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.LockContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Reservations: one instance at a time changes a SKU's stock. */
@Service
public class InventoryService {

    /** The lock's label in meters and in the {@code distlocks} endpoint. */
    public static final String RESERVE_LOCK = "InventoryService.reserve";

    private final StockLedger ledger;

    public InventoryService(StockLedger ledger) {
        this.ledger = ledger;
    }

    /**
     * Takes {@code quantity} units of {@code sku} from stock. The lock {@code sku:<sku>} is acquired before
     * the transaction starts and released after it commits, so the next holder reads the committed stock;
     * the write carries the lock's fencing token, which the database checks.
     *
     * @throws OutOfStockException if fewer units are on hand
     * @throws dev.distlock.core.LockTimeoutException if the SKU stayed locked longer than
     *         {@code inventory.reserve-timeout}
     */
    @DistributedLock(name = "'sku:' + #sku", timeout = "${inventory.reserve-timeout:5s}", label = RESERVE_LOCK)
    @Transactional
    public Reservation reserve(String sku, int quantity) {
        if (quantity < 1) {
            throw new IllegalArgumentException("quantity must be at least 1, got " + quantity);
        }
        return ledger.take(sku, quantity, LockContext.current().fencingToken());
    }

    /** Units of {@code sku} on hand; a read needs no lock. */
    @Transactional(readOnly = true)
    public long onHand(String sku) {
        return ledger.onHand(sku);
    }
}
