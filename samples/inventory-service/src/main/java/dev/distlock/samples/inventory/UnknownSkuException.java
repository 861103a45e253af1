package dev.distlock.samples.inventory;

/** No stock row exists for the SKU. */
public class UnknownSkuException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnknownSkuException(String sku) {
        super("unknown SKU " + sku);
    }
}
