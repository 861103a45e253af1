package dev.distlock.samples.inventory;

import dev.distlock.core.LockRegistry;
import dev.distlock.election.spring.LeaderCandidate;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * An inventory service that runs as several instances on one Redis and one database: reservations of a SKU
 * are serialized across instances by {@code @DistributedLock}, transfers lock two SKUs at once with one annotation,
 * and the stock audit runs on the instance elected its leader.
 */
@SpringBootApplication
@EnableScheduling
public class InventoryServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(InventoryServiceApplication.class, args);
    }

    /** This instance's candidacy to run the stock audit: it stands while the application runs. */
    @Bean
    LeaderCandidate stockAuditLeader(LockRegistry locks) {
        return new LeaderCandidate(locks, StockAudit.ELECTION);
    }
}
