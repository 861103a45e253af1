package dev.distlock.core.engine.hold;

import dev.distlock.core.HoldKind;

/**
 * Who holds a {@link Hold} in this process and how many times: its owner thread (none for a non-blocking caller's
 * hold), the owner's re-entries, the reads it took inside a write hold of a read-write lock, and what the hold is of
 * its name ({@link HoldKind}, which a downgrade turns from a write into a read). The counts are the owner's alone to
 * touch; the owner and the kind are read by other threads too.
 */
public abstract class HeldBy extends TrustedLease {

    /** The owning thread; {@code null} until a blocking caller takes it, and once detached. */
    private volatile Thread owner;
    /** Re-entrant holds of the owner; only the owner touches it. */
    private int count = 1;
    /** Read holds its owner took inside this write hold of a read-write lock; only the owner touches it. */
    private int reads;
    /** What it holds of its name; set before it is handed out, and by its owner's downgrade; events read it. */
    private volatile HoldKind kind = HoldKind.LOCK;

    HeldBy(long leaseMillis, boolean renewed, long validUntilNanos, boolean confirmPending, long nextRenewalNanos) {
        super(leaseMillis, renewed, validUntilNanos, confirmPending, nextRenewalNanos);
    }

    /** The name held. */
    abstract String name();

    /** The thread that owns this hold; {@code null} until a blocking caller takes it, and once detached. */
    public Thread owner() {
        return owner;
    }

    /** The hold is now {@code thread}'s ({@code null}: no thread's, detached). */
    public void ownBy(Thread thread) {
        owner = thread;
    }

    /** How many times its owner holds it. */
    public int count() {
        return count;
    }

    /** Its owner takes it once more. */
    public void reenter() {
        count++;
    }

    /**
     * Its owner takes it once more as the name's lock: refused for a hold of permits, so a thread never counts a read
     * or write hold of a name as the name's exclusive lock.
     */
    public void reenterAsLock() {
        if (kind != HoldKind.LOCK) {
            throw new IllegalStateException("Lock '" + name() + "': the current thread holds this name through a "
                    + "read-write lock; a name is a lock or a read-write lock while in use, not both");
        }
        count++;
    }

    /** How many read holds its owner took inside this write hold (a write hold kept for reading: a downgrade). */
    public int reads() {
        return reads;
    }

    /** Its owner, which holds this write hold, takes a read hold inside it. */
    public void enterRead() {
        reads++;
    }

    /** Its owner gives one read hold taken inside this write hold back. */
    public void leaveRead() {
        reads--;
    }

    /** Its owner, which unlocked the write and still reads inside it, holds it as one read hold from now on. */
    void downgradeToRead() {
        kind = HoldKind.READ;
        count = reads;
        reads = 0;
    }

    /** Its owner gives one of its holds back; answers how many are left. */
    public int leaveOnce() {
        return --count;
    }

    /** What it holds of its name: the lock, permits, a read or a write. */
    public HoldKind kind() {
        return kind;
    }

    /** It holds {@code kind} of its name: set before it is handed out. */
    final void holdsAs(HoldKind kind) {
        this.kind = kind;
    }
}
