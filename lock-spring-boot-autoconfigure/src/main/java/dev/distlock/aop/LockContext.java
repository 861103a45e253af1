package dev.distlock.aop;

import java.util.Map;
import java.util.Optional;

/**
 * The lock of the {@link dev.distlock.annotation.DistributedLock @DistributedLock} call that is running:
 * its evaluated key, its label and the fencing token to hand to the resource it protects.
 *
 * <pre>{@code
 * @DistributedLock(name = "'order:' + #order.id")
 * void pay(Order order) {
 *     repository.save(order, LockContext.current().fencingToken());
 * }
 * }</pre>
 *
 * <p>{@link #current()} sees the innermost annotated call running on the calling thread. For a method
 * returning a {@code CompletionStage} that is the method's synchronous part: to use the lock in callbacks
 * on other threads, read {@code LockContext.current()} in the method itself and hand that object on; its
 * {@link #isHeld()} follows the hold until the returned stage completes. Inside {@code Mono}/{@code Flux}
 * pipelines use {@link ReactiveLockContext#current()} (the method body itself sees {@code current()}).
 */
public final class LockContext {

    private final CallHold hold;

    LockContext(CallHold hold) {
        this.hold = hold;
    }

    /**
     * The lock of the innermost {@code @DistributedLock} call running on this thread.
     *
     * @throws IllegalStateException if no annotated call is running on this thread
     */
    public static LockContext current() {
        return find().orElseThrow(() -> new IllegalStateException("LockContext.current() was called outside a "
                + "@DistributedLock method: it is available on the thread that runs the annotated method, while "
                + "it runs (in Mono/Flux pipelines use ReactiveLockContext.current())"));
    }

    /** The lock of the innermost {@code @DistributedLock} call running on this thread, if any. */
    public static Optional<LockContext> find() {
        return Optional.ofNullable(CallStack.innermost()).map(CallHold::view);
    }

    /** The evaluated lock name, e.g. {@code order:42}. */
    public String key() {
        return hold.key();
    }

    /** The lock's label: the annotation's label, its literal name, or {@code SimpleClassName.methodName}. */
    public String label() {
        return hold.label();
    }

    /**
     * The fencing token of this hold: larger than every token issued for this key before it.
     *
     * @throws IllegalStateException if the call locks several names, each with its own ({@link #fencingTokens()})
     */
    public long fencingToken() {
        return hold.fencingToken();
    }

    /**
     * The fencing token of each name the call holds: one entry, or one per name, in their canonical (sorted) order,
     * when the annotation's name gives several.
     */
    public Map<String, Long> fencingTokens() {
        return hold.fencingTokens();
    }

    /**
     * Whether the call still holds its lock: not yet released and not known to be lost. Loss is detected
     * for asynchronous holds from any thread and for the others on the calling thread; elsewhere this only
     * tells whether the call has released it.
     */
    public boolean isHeld() {
        return hold.isHeld();
    }

    @Override
    public String toString() {
        return "LockContext[" + hold.label() + ", key " + hold.key() + ", fencing tokens " + hold.fencingTokens() + "]";
    }
}
