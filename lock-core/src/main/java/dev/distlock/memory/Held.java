package dev.distlock.memory;

import dev.distlock.core.spi.LockStore;

/**
 * A hold as the store keeps it: the owner's token, when its lease ends, its fencing token and the owner it was
 * handed over from (what a release run again recognises). Immutable, so the store replaces rather than edits it.
 */
record Held(String token, long expiresAt, long fencingToken, String previousOwner) {

    Held withExpiry(long newExpiresAt) {
        return new Held(token, newExpiresAt, fencingToken, previousOwner);
    }

    /** The lease left at {@code now}; a hold without expiry never expires. */
    long leaseLeft(long now) {
        return expiresAt == Long.MAX_VALUE ? LockStore.NEVER_EXPIRES : expiresAt - now;
    }
}
