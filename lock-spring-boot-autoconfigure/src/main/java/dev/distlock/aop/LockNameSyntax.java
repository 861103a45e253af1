package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock;

/**
 * The rule of {@link DistributedLock#name()}: SpEL exactly when it starts with {@code #}, {@code '}, {@code @},
 * {@code T(} or <code>&#123;</code> (an inline list of several names) and the annotation does not say
 * {@code literal = true}. One place for every layer that asks.
 *
 * @since 0.1.0
 */
public final class LockNameSyntax {

    /** How a SpEL name starts, for messages. */
    static final String STARTS = "#, ', @, T( or {";

    private LockNameSyntax() {
    }

    /** Whether {@code name} reads as SpEL. */
    public static boolean isExpression(String name) {
        return name.startsWith("#") || name.startsWith("'") || name.startsWith("@") || name.startsWith("T(")
                || name.startsWith("{");
    }

    /** Whether the annotation's name is SpEL (placeholders aside). */
    public static boolean isExpression(DistributedLock annotation) {
        return !annotation.literal() && isExpression(annotation.name());
    }
}
