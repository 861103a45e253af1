package dev.distlock.samples.inventory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * An inventory service that runs as several instances on one Redis and one database: reservations of a SKU
 * are serialized across instances by {@code @DistributedLock}, transfers lock two SKUs at once with one annotation,
 * and the stock audit runs on one instance at a time.
 */
@SpringBootApplication
@EnableScheduling
public class InventoryServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(InventoryServiceApplication.class, args);
    }
}
