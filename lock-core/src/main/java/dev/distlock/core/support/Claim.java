package dev.distlock.core.support;

import dev.distlock.core.HoldKind;
import dev.distlock.core.Lease;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.hold.Hold;

/**
 * What a {@link StoreLock} handle takes of its name: the name's lock, or the read or write side of its read-write
 * lock. A read-write lock is a counted claim: a reader takes one of {@link #WRITER_PERMITS} permits, a writer all of
 * them, so the store's permit rules (owners' counts fit, no waiter overtaken) are the read-write rules. A thread
 * holds a name through one hold; this says how each kind re-enters it and gives it back.
 */
enum Claim {

    LOCK("lock"), READ("read lock"), WRITE("write lock");

    /** The permits of a read-write lock, all of which a writer takes (no reader fits beside it): its most readers. */
    static final int WRITER_PERMITS = 1 << 20;

    private final String side;

    Claim(String side) {
        this.side = side;
    }

    /** What an acquisition of this claim asks the engine for. */
    LockRequest request(Engine engine, String name, Lease lease, String label) {
        return switch (this) {
            case LOCK -> engine.request(name, lease, label);
            case READ -> engine.permitRequest(name, 1, WRITER_PERMITS, HoldKind.READ, lease, label);
            case WRITE -> engine.permitRequest(name, WRITER_PERMITS, WRITER_PERMITS, HoldKind.WRITE, lease, label);
        };
    }

    /** The claim a thread's {@code hold} is (a semaphore's permits are no thread's: never asked). */
    static Claim of(Hold hold) {
        return switch (hold.kind()) {
            case LOCK, PERMITS -> LOCK;
            case READ -> READ;
            case WRITE -> WRITE;
        };
    }

    /**
     * The thread holding {@code mine} takes this claim again, counted on its hold without the store: a re-entry, or a
     * read inside its write hold. A read hold asked for the write lock is refused at once: it would wait for itself.
     */
    void reenter(String name, Hold mine) {
        Claim held = of(mine);
        if (this == LOCK) {
            mine.reenterAsLock();
        } else if (held == this) {
            mine.reenter();
        } else if (this == READ && held == WRITE) {
            mine.enterRead();
        } else if (held == READ) {
            throw new IllegalStateException("Read-write lock '" + name + "': the current thread holds its read lock "
                    + "and asks for its write lock; a read lock cannot be upgraded (the write would wait for this "
                    + "thread's own read): unlock the read lock first");
        } else {
            throw new IllegalStateException("Read-write lock '" + name + "': the current thread holds this name as a "
                    + "lock; a name is a lock or a read-write lock while in use, not both");
        }
    }

    /** How many times the thread holding {@code mine} holds this claim. */
    int count(Hold mine) {
        Claim held = of(mine);
        if (held == this) {
            return mine.count();
        }
        return this == READ && held == WRITE ? mine.reads() : 0;
    }

    /** {@code mine}, if it holds this claim for its thread; else the monitor exception naming the name and side. */
    Hold own(String name, Hold mine) {
        if (mine == null || count(mine) == 0) {
            throw new IllegalMonitorStateException(this == LOCK ? "Lock '" + name + "' is not held by the current "
                    + "thread (" + Thread.currentThread().getName() + ")" : "The " + side + " of '" + name
                    + "' is not held by the current thread (" + Thread.currentThread().getName() + ")");
        }
        return mine;
    }

    /** What the hold of a thread that gave a claim back becomes. */
    enum Left {
        /** Still held as it was. */
        HELD,
        /** Released: it was the thread's last claim of the name. */
        RELEASED,
        /** A read hold: the thread unlocked its write and still reads inside it (a downgrade). */
        READ
    }

    /** The thread holding {@code mine} gives this claim back once: what its hold is to become. */
    Left leave(String name, Hold mine) {
        own(name, mine);
        if (this == READ && of(mine) == WRITE) {
            mine.leaveRead(); // a read inside a write still held: a write given back with reads left downgrades
            return Left.HELD;
        }
        if (mine.leaveOnce() > 0) {
            return Left.HELD;
        }
        return mine.reads() == 0 ? Left.RELEASED : Left.READ;
    }
}
