package dev.distlock.samples.inventory;

/**
 * What the stock row of a SKU says next to what its movements add up to. They differ only when an update
 * of the row was lost.
 *
 * @param sku the SKU
 * @param onHand units on hand according to the stock row
 * @param movements units on hand according to the movements (opening balance, reservations, transfers)
 * @param fence the highest fencing token that wrote the row; 0 if none did
 */
public record SkuBalance(String sku, long onHand, long movements, long fence) {

    /** Whether the stock row agrees with the movements. */
    public boolean balanced() {
        return onHand == movements;
    }
}
