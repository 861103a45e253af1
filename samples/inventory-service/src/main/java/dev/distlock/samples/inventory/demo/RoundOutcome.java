package dev.distlock.samples.inventory.demo;

import dev.distlock.samples.inventory.SkuBalance;
import java.time.Duration;
import java.util.List;

/**
 * One round as the launcher saw it: what the instances reported and what the shared database holds.
 *
 * @param locked whether the reservations took the lock
 * @param instances the instances' figures, merged
 * @param reserved units reserved according to the movements: every reservation that succeeded wrote one
 * @param taken units taken from stock according to the stock rows; short of {@code reserved} by one unit
 *        for every lost update
 * @param elapsed how long the round took
 */
public record RoundOutcome(boolean locked, RoundResult instances, long reserved, long taken, Duration elapsed) {

    /** The outcome after the SKUs were opened with {@code opening} units each. */
    static RoundOutcome of(boolean locked, List<RoundResult> results, List<SkuBalance> balances, long opening,
            Duration elapsed) {
        long openingTotal = opening * balances.size();
        long movements = balances.stream().mapToLong(SkuBalance::movements).sum();
        long onHand = balances.stream().mapToLong(SkuBalance::onHand).sum();
        return new RoundOutcome(locked, RoundResult.merge(results), openingTotal - movements, openingTotal - onHand,
                elapsed);
    }

    /** Updates of the stock rows that were overwritten by another one made from the same read. */
    public long lostUpdates() {
        return reserved - taken;
    }

    /** Reservations attempted. */
    public long attempted() {
        return instances.attempted();
    }

    /** Reservations that failed (threw). */
    public long failed() {
        return instances.failed();
    }

    /** Acquisitions of the reservation lock, from the instances' meters. */
    public long acquisitions() {
        return instances.acquired();
    }

    /** The highest fencing token a reservation was written with. */
    public long highestFence() {
        return instances.highestFence();
    }
}
