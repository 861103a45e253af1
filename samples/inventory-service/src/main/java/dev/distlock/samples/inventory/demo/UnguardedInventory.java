package dev.distlock.samples.inventory.demo;

import dev.distlock.samples.inventory.InventoryService;
import dev.distlock.samples.inventory.Reservation;
import dev.distlock.samples.inventory.StockLedger;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * {@link InventoryService#reserve} without {@code @DistributedLock}: the same transaction and the same read
 * then write of the stock row, with nothing to serialize instances. Exists only in the demo, for its run
 * without locking; the service itself has no unlocked path.
 */
@Service
@Profile("demo")
public class UnguardedInventory {

    private final StockLedger ledger;

    public UnguardedInventory(StockLedger ledger) {
        this.ledger = ledger;
    }

    /** Takes units from stock, unlocked. */
    @Transactional
    public Reservation reserve(String sku, int quantity) {
        return ledger.takeUnfenced(sku, quantity);
    }
}
