package dev.distlock.annotation;

import dev.distlock.core.HoldKind;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method while holding a distributed lock: the key is computed from the arguments, the
 * lock is acquired (waiting at most {@link #timeout()}), the method runs, and the lock is released however
 * the method ends. If the lock cannot be had in time the method does not run (see {@link #onTimeout()}).
 *
 * <pre>{@code
 * @DistributedLock(name = "nightly-report")                        // a literal name
 * @DistributedLock(name = "#orderId", timeout = "5s")              // SpEL over the arguments
 * @DistributedLock(name = "'order:' + #order.id", lease = "30s")   // fixed lease, no renewal
 * @DistributedLock(name = "{'account:' + #from, 'account:' + #to}") // several names, all or nothing
 * }</pre>
 *
 * <p><b>Several names.</b> An expression that gives a collection or an array (such as the inline list above) locks
 * all of its names at once, all or nothing within the one wait, in a canonical order whatever order they are listed
 * in, so two methods listing the same names in opposite orders never deadlock; duplicates are harmless
 * ({@code dev.distlock.core.LockRegistry#obtainAll}). {@code LockContext.fencingTokens()} gives each name's token.
 *
 * <p><b>When is a name SpEL?</b> Exactly when it starts with {@code #}, {@code '}, {@code @}, {@code T(} or
 * <code>&#123;</code>.
 * Anything else is a literal and needs no quotes. Expressions see the arguments as {@code #name},
 * {@code #p0} or {@code #a0}, the method as {@code #root.method}, the target as {@code #root.target}, and
 * beans as {@code @beanName}. They are parsed once per method; syntax errors and unknown parameter names
 * fail the application at startup. {@code ${...}} placeholders are resolved first, in literals and
 * expressions alike. A literal that contains {@code #} or {@code '} fails the startup, since it is most
 * likely a mistaken expression ({@code "order:#id"} would be one lock for every order); write the
 * expression ({@code "'order:' + #id"}) or, if the characters are meant, set {@link #literal()}.
 *
 * <p>The lock wraps {@code @Transactional} on the same method: it is acquired before the transaction
 * starts and released after it commits or rolls back. Like every proxy-based annotation it applies to
 * calls through the Spring proxy, not to calls from the same object ({@code this.method()}).
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface DistributedLock {

    /**
     * The lock name: a literal, or a SpEL expression when it starts with {@code #}, {@code '}, {@code @},
     * {@code T(} or <code>&#123;</code>; {@code ${...}} placeholders are resolved in both. An expression that gives a
     * collection or an array names several locks, taken together.
     */
    String name();

    /**
     * Whether {@link #name()} is a literal whatever it looks like: never SpEL, and allowed to contain
     * {@code #} and {@code '} (which otherwise fail the startup as a likely mistaken expression).
     *
     * @since 0.1.0
     */
    boolean literal() default false;

    /**
     * How long the call may wait for the lock: a duration such as {@code "500ms"}, {@code "5s"} or
     * {@code "PT5S"}, or a {@code ${...}} placeholder; {@code "0"} means exactly one try. Empty: the
     * {@code distlock.wait-timeout} property.
     */
    String timeout() default "";

    /**
     * A fixed lease, after which the lock expires even if the method still runs (no renewal): 100ms
     * ({@link dev.distlock.core.Lease#MIN}) to 365 days, checked at startup. Empty: the {@code distlock.lease}
     * property, renewed by the watchdog while the method runs (unless {@code distlock.renew-lease=false}).
     */
    String lease() default "";

    /**
     * How long the lock stays taken at least, counted from when the method started, even if the method
     * returns sooner: on return the lock is left in Redis for the rest of this time (no renewal), then
     * expires. A job scheduled on several instances whose clocks differ a little then runs once per
     * period, like ShedLock's {@code lockAtLeastFor}. Also applies when the method throws. A duration as for
     * {@link #timeout()}; empty or {@code "0"}: released as soon as the method returns.
     *
     * @since 0.1.0
     */
    String holdAtLeast() default "";

    /** What happens when the lock cannot be acquired in time. */
    TimeoutAction onTimeout() default TimeoutAction.FAIL;

    /**
     * A concurrency limit across every instance instead of a lock: at most this many calls run at once, each holding
     * one of the leased permits of the semaphore {@link #name()} ({@link dev.distlock.core.LockRegistry#semaphore}),
     * with the same timeout, lease, {@code holdAtLeast}, {@code onTimeout} and label as a lock. Every instance must
     * declare the same number for a name. The name must be one name. {@code 0} (the default): a lock, one call at
     * a time.
     *
     * @since 0.1.0
     */
    int permits() default 0;

    /**
     * What the call holds of the name: its lock ({@link Mode#EXCLUSIVE}, the default), or the read or write side of
     * its read-write lock ({@link dev.distlock.core.LockRegistry#readWriteLock}): calls in {@link Mode#READ} run
     * together, across every instance, while no call holds it in {@link Mode#WRITE}; a writer runs alone. Same
     * timeout, lease, {@code holdAtLeast}, {@code onTimeout} and label as a lock; the name must be one name, and
     * {@code permits} stays 0.
     *
     * @since 0.1.0
     */
    Mode mode() default Mode.EXCLUSIVE;

    /**
     * The lock's label in metrics and events. Empty: the name itself when it is a literal, otherwise
     * {@code SimpleClassName.methodName}. Never the evaluated key, which would make unbounded metrics.
     */
    String label() default "";

    /** What a call holds of its name. */
    enum Mode {

        /** The name's lock: one call at a time, across every instance. */
        EXCLUSIVE,

        /** The read side of the name's read-write lock: shared with other readers, never with a writer. */
        READ,

        /** The write side of the name's read-write lock: one call, with no reader beside it. */
        WRITE;

        /** What a call declared with this mode and {@code permits} holds: permits if any, else this side. */
        public HoldKind kind(int permits) {
            if (permits > 0) {
                return HoldKind.PERMITS;
            }
            return switch (this) {
                case EXCLUSIVE -> HoldKind.LOCK;
                case READ -> HoldKind.READ;
                case WRITE -> HoldKind.WRITE;
            };
        }
    }

    /** What a call does when it could not acquire its lock in time. */
    enum TimeoutAction {

        /**
         * Throw {@link dev.distlock.core.LockTimeoutException}, naming the lock, the key and the time waited (as the
         * failure of the returned future or the error signal for asynchronous and reactive methods).
         */
        FAIL,

        /**
         * Skip the method and return "nothing": {@code null} for objects, {@code Optional.empty()} for
         * {@code Optional}, zero/false for primitives, a future completed with {@code null} for
         * {@code CompletionStage}/{@code CompletableFuture}, and an empty {@code Mono}/{@code Flux}.
         */
        SKIP
    }
}
