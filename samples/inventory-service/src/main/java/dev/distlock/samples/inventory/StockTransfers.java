package dev.distlock.samples.inventory;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.LockContext;
import dev.distlock.core.LockTimeoutException;
import java.util.Map;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Moves units from one SKU to another (say, a product relabelled). It needs the locks of both SKUs (the same ones
 * {@link InventoryService#reserve} takes): one annotation names both, and distlock takes them together, in one order
 * whatever the direction, so two opposite transfers cannot each hold one lock and wait for the other.
 */
@Service
public class StockTransfers {

    /** The locks' label in meters and in the {@code distlocks} endpoint. */
    public static final String TRANSFER_LOCK = "StockTransfers.transfer";

    private final StockLedger ledger;

    public StockTransfers(StockLedger ledger) {
        this.ledger = ledger;
    }

    /**
     * Moves {@code quantity} units from {@code from} to {@code to} in one transaction, holding both SKUs' locks until
     * it has committed.
     *
     * @throws OutOfStockException if {@code from} has fewer units on hand
     * @throws LockTimeoutException if a lock stayed held by others longer than {@code inventory.reserve-timeout}
     */
    @DistributedLock(name = "{'sku:' + #from, 'sku:' + #to}", timeout = "${inventory.reserve-timeout:5s}",
            label = TRANSFER_LOCK)
    @Transactional
    public void transfer(String from, String to, int quantity) {
        if (from.equals(to) || quantity < 1) {
            throw new IllegalArgumentException("a transfer moves at least 1 unit between two SKUs, got "
                    + quantity + " from " + from + " to " + to);
        }
        Map<String, Long> tokens = LockContext.current().fencingTokens();
        ledger.transfer(from, to, quantity, tokens.get("sku:" + from), tokens.get("sku:" + to));
    }
}
