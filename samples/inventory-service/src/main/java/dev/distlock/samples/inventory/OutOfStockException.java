package dev.distlock.samples.inventory;

/** Fewer units are on hand than a reservation or a transfer asked for; nothing was changed. */
public class OutOfStockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OutOfStockException(String sku, long wanted, long onHand) {
        super("SKU " + sku + ": " + wanted + " units wanted, " + onHand + " on hand");
    }
}
