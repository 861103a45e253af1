package dev.distlock.samples.inventory;

/**
 * The database refused a write because a newer lock holder has written the row since: the caller's lock
 * expired or was taken over while it worked (a long GC pause, say). The transaction rolls back.
 */
public class StaleFencingTokenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StaleFencingTokenException(String sku, long fencingToken) {
        super("SKU " + sku + ": fencing token " + fencingToken + " is older than the last one that wrote it; "
                + "the lock was lost before this write");
    }
}
