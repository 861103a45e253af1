package dev.distlock.core.spi;

/**
 * An operator's way out of a hung holder, which keeps renewing ({@link StoreCapabilities#forcedRelease()}).
 */
@FunctionalInterface
public interface ForcedRelease {

    /**
     * Ends the hold of {@code name} whose fencing token is {@code fencingToken}, whoever owns it, as its owner's
     * release would (handed to the first live waiter, or freed with its last token kept). Only that very hold: if
     * the lock is free, or held with another fencing token (a later holder's), nothing changes. The hold ends without
     * its owner's release, so it counts as lost: its owner's next renewal, extension or release finds it not held (a
     * release run again never reports it released), and the next holder's fencing token is larger than
     * {@code fencingToken}.
     *
     * @param fencingToken the hold's fencing token, as {@link LockReads#inspect} showed it; {@code 0} (unknown)
     *        matches nothing
     * @return whether that hold was held and is now ended
     */
    boolean forceRelease(String name, long fencingToken);
}
