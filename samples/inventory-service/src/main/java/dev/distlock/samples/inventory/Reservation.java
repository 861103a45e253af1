package dev.distlock.samples.inventory;

/**
 * Units of a SKU taken from stock.
 *
 * @param sku the SKU
 * @param quantity how many units were taken
 * @param fencingToken the token of the lock the write was made under; 0 if it was made without a lock
 */
public record Reservation(String sku, int quantity, long fencingToken) {
}
