package dev.distlock.test.kit;

/**
 * One guarded section the {@link Journal} saw: where it entered and left in the journal's order, on which thread,
 * and the fencing token the store showed for its lock at each end ({@code 0}: the lock was not held).
 *
 * @param name the lock's name
 * @param thread the name of the thread that ran the section
 * @param entered the journal's sequence number at entry
 * @param left the sequence number at exit; {@code -1} while the section runs
 * @param tokenAtEntry the fencing token of the hold of {@code name} at entry, {@code 0} if nobody held it
 * @param tokenAtExit the same at exit
 */
public record Section(String name, String thread, long entered, long left, long tokenAtEntry, long tokenAtExit) {

    /** Whether this section and {@code other} ran at the same time, at least in part. */
    public boolean overlaps(Section other) {
        long end = left < 0 ? Long.MAX_VALUE : left;
        long otherEnd = other.left < 0 ? Long.MAX_VALUE : other.left;
        return entered < otherEnd && other.entered < end;
    }

    /** Whether the lock was held with one fencing token from entry to exit. */
    public boolean underLock() {
        return tokenAtEntry > 0 && tokenAtEntry == tokenAtExit;
    }

    @Override
    public String toString() {
        return name + " on " + thread + " [" + entered + ".." + (left < 0 ? "running" : left) + "] token "
                + tokenAtEntry + (tokenAtExit == tokenAtEntry ? "" : "->" + tokenAtExit);
    }
}
