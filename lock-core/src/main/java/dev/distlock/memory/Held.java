package dev.distlock.memory;

import dev.distlock.core.spi.LockStore;

/**
 * A hold as the store keeps it: the owner's token, when its lease ends, its fencing token and the fencing token of
 * the first hold of the name's current life (what a release run again looks at, as the Redis scripts' origin).
 * Immutable, so the store replaces rather than edits it.
 */
record Held(String token, long expiresAt, long fencingToken, long origin) {

    Held withExpiry(long newExpiresAt) {
        return new Held(token, newExpiresAt, fencingToken, origin);
    }

    /** The lease left at {@code now}; a hold without expiry never expires. */
    long leaseLeft(long now) {
        return expiresAt == Long.MAX_VALUE ? LockStore.NEVER_EXPIRES : expiresAt - now;
    }

    /**
     * Whether {@code fence} was issued in this hold's life, up to this hold: then, as every hold of a life ends by its
     * owner's release, the hold it was issued for was released (see {@link InMemoryLockStore#release}).
     */
    boolean sameLifeUpTo(long fence) {
        return fence >= origin && fence <= fencingToken;
    }
}
