package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock.Mode;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.core.HoldKind;
import dev.distlock.core.Lease;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.expression.Expression;

/**
 * Everything a call of one annotated method needs, worked out once per (method, target class): the parsed
 * name, durations, label and return-type strategy, or the problems that make the declaration unusable.
 *
 * @param method the most specific method (its parameter names are the expression's variables)
 * @param targetClass the class the method is called on
 * @param description {@code fully.qualified.Class.method}, for messages
 * @param name the declared name, placeholders resolved
 * @param literalKey the key when the name is a literal, else {@code null}
 * @param keyExpression the parsed name when it is SpEL, else {@code null}
 * @param beanReferences the beans the expression refers to ({@code @name}), checked at startup
 * @param waitTimeout how long a call waits for the lock
 * @param lease the lease of a hold
 * @param holdAtLeast how long after the method started the lock stays taken at least; zero for no minimum
 * @param label the lock's label in events and metrics
 * @param onTimeout what a call does when it cannot get the lock in time
 * @param permits how many calls may run at once, each with a permit of the name's semaphore; 0 for a lock
 * @param mode what a call holds of the name: its lock, or a side of its read-write lock
 * @param returnHandler how long the lock is held, given the return type
 * @param problems why the declaration is unusable; empty when it is fine
 */
record LockOperation(Method method, Class<?> targetClass, String description, String name, String literalKey,
        Expression keyExpression, Set<String> beanReferences, Duration waitTimeout, Lease lease, Duration holdAtLeast, String label,
        TimeoutAction onTimeout, int permits, Mode mode, ReturnHandler returnHandler, List<String> problems) {

    /** What a call holds of its name: its lock, permits, a read or a write. */
    HoldKind kind() {
        return mode.kind(permits);
    }

    /** Whether a call takes a counted claim of its one name (a permit, a read or a write) instead of its lock. */
    boolean counted() {
        return kind() != HoldKind.LOCK;
    }

    /** The attribute that makes the claim counted, as declared, for messages. */
    String countedAttribute() {
        return permits > 0 ? "permits = " + permits : "mode = " + mode;
    }

    /** Fails a call of an unusable declaration (when no validator stopped the application at startup). */
    void requireValid() {
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems));
        }
    }
}
