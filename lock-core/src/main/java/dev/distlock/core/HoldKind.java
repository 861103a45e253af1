package dev.distlock.core;

import java.util.Locale;

/**
 * What a hold is of its name: the name's lock, permits of its semaphore, or a side of its read-write lock. A small
 * fixed set, so it suits metric tags ({@link LockEvent#kind()}).
 *
 * @since 0.1.0
 */
public enum HoldKind {

    /** The name's exclusive lock ({@link LockRegistry#obtain}). */
    LOCK,

    /** Permits of the name's semaphore ({@link LockRegistry#semaphore}). */
    PERMITS,

    /** The read side of the name's read-write lock ({@link LockRegistry#readWriteLock}). */
    READ,

    /** The write side of the name's read-write lock. */
    WRITE;

    /** In lower case, as meters and observations tag it: {@code lock}, {@code permits}, {@code read}, {@code write}. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
