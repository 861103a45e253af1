package dev.distlock.samples.inventory;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A scheduled check that every SKU's stock row agrees with its movements. Every instance schedules it;
 * the lock lets one of them run it at a time, and an instance that finds it running skips its turn
 * ({@code timeout = "0"}: one try, {@code SKIP}: return without running).
 */
@Component
public class StockAudit {

    /** The lock's name, which is also its label in meters. */
    public static final String LOCK = "stock-audit";

    private static final Logger log = LoggerFactory.getLogger(StockAudit.class);

    private final StockLedger ledger;
    private final AtomicLong runs = new AtomicLong();

    public StockAudit(StockLedger ledger) {
        this.ledger = ledger;
    }

    /** Compares every SKU's stock row with its movements and logs those that differ. */
    @Scheduled(fixedDelayString = "${inventory.audit.interval:30s}", initialDelayString = "${inventory.audit.interval:30s}")
    @DistributedLock(name = LOCK, timeout = "0", onTimeout = TimeoutAction.SKIP)
    @Transactional(readOnly = true)
    public void run() {
        runs.incrementAndGet();
        List<SkuBalance> unbalanced = ledger.balances().stream().filter(balance -> !balance.balanced()).toList();
        for (SkuBalance balance : unbalanced) {
            log.warn("SKU {}: the stock row says {} on hand, its movements add up to {}: updates were lost",
                    balance.sku(), balance.onHand(), balance.movements());
        }
    }

    /** How many times this instance has run the audit (skipped turns not counted). */
    public long runs() {
        return runs.get();
    }
}
