package dev.distlock.samples.inventory;

import dev.distlock.election.LeaderTerm;
import dev.distlock.election.spring.LeaderCandidate;
import java.util.List;
import java.util.Optional;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A scheduled check that every SKU's stock row agrees with its movements. Every instance schedules it; only the
 * instance elected leader of {@link #ELECTION} runs it ({@link InventoryServiceApplication#stockAuditLeader}), so
 * the audit runs on one instance while that instance lives, and on another one as soon as it stops.
 */
@Component
public class StockAudit {

    /** The election's name, which is also its lock's name. */
    public static final String ELECTION = "stock-audit";
    /** The counter of the audit's turns, tagged {@code outcome}: {@code ran}, or {@code skipped} (not the leader). */
    public static final String TURNS = "inventory.audit.turns";

    private static final Logger log = LoggerFactory.getLogger(StockAudit.class);

    private final StockLedger ledger;
    private final LeaderCandidate leader;
    private final Counter runs;
    private final Counter skipped;

    public StockAudit(StockLedger ledger, LeaderCandidate leader, MeterRegistry meters) {
        this.ledger = ledger;
        this.leader = leader;
        this.runs = meters.counter(TURNS, "outcome", "ran");
        this.skipped = meters.counter(TURNS, "outcome", "skipped");
    }

    /** Compares every SKU's stock row with its movements and logs those that differ, if this instance leads. */
    @Scheduled(fixedDelayString = "${inventory.audit.interval:30s}", initialDelayString = "${inventory.audit.interval:30s}")
    @Transactional(readOnly = true)
    public void run() {
        Optional<LeaderTerm> term = leader.term();
        if (term.isEmpty()) {
            skipped.increment(); // another instance is the leader and audits
            return;
        }
        runs.increment();
        List<SkuBalance> unbalanced = ledger.balances().stream().filter(balance -> !balance.balanced()).toList();
        for (SkuBalance balance : unbalanced) {
            log.warn("SKU {}: the stock row says {} on hand, its movements add up to {}: updates were lost "
                    + "(audit of term {})", balance.sku(), balance.onHand(), balance.movements(), term.get().epoch());
        }
    }

    /** How many times this instance has run the audit (turns it left to the leader not counted). */
    public long runs() {
        return (long) runs.count();
    }
}
