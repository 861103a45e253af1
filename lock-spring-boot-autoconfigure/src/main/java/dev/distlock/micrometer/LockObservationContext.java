package dev.distlock.micrometer;

import dev.distlock.core.HoldKind;
import io.micrometer.observation.Observation;
import java.lang.reflect.Method;

/**
 * What the observations of a {@code @DistributedLock} call carry: the lock's label, the evaluated key, the
 * method and, once known, the outcome and the fencing token. One context per observation: the acquire's,
 * then the hold's.
 *
 * @since 0.1.0
 */
public final class LockObservationContext extends Observation.Context {

    private final String label;
    private final String key;
    private final Method method;
    private final boolean hold;
    private final HoldKind kind;
    private volatile String outcome = "unknown";
    private volatile long fencingToken;
    private volatile String waitEnd = "none";

    LockObservationContext(String label, String key, Method method, boolean hold, long fencingToken, HoldKind kind) {
        this.label = label;
        this.key = key;
        this.method = method;
        this.hold = hold;
        this.fencingToken = fencingToken;
        this.kind = kind;
    }

    /** What the call holds of its name: its lock, permits, a read or a write (low cardinality). */
    public HoldKind getKind() {
        return kind;
    }

    /** The lock's label: low cardinality (the declared lock, not the key). */
    public String getLabel() {
        return label;
    }

    /** The evaluated lock name, e.g. {@code order:42}: high cardinality. */
    public String getKey() {
        return key;
    }

    /** The annotated method. */
    public Method getMethod() {
        return method;
    }

    /** Whether this is the hold's context (else the acquire's). */
    public boolean isHold() {
        return hold;
    }

    /**
     * How it ended: for the acquire {@code acquired}, {@code timeout}, {@code skipped}, {@code interrupted} or
     * {@code error}; for the hold {@code released}, {@code lost} or {@code release_failed}.
     */
    public String getOutcome() {
        return outcome;
    }

    void setOutcome(String outcome) {
        this.outcome = outcome;
    }

    /**
     * How the acquire's wait ended ({@link dev.distlock.core.WaitEnd#tagValue()}): {@code immediate},
     * {@code notice}, {@code poll}, {@code lease-end} or {@code local-hand-off} once acquired; {@code none} while
     * not acquired, and for an acquire that ended without the lock or whose lock does not tell.
     */
    public String getWaitEnd() {
        return waitEnd;
    }

    void setWaitEnd(String waitEnd) {
        this.waitEnd = waitEnd;
    }

    /** The hold's fencing token, or 0 while there is none. */
    public long getFencingToken() {
        return fencingToken;
    }

    void setFencingToken(long fencingToken) {
        this.fencingToken = fencingToken;
    }
}
