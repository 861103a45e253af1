package dev.distlock.aop;

import dev.distlock.core.DistributedLockException;

/**
 * The lock name of a {@link dev.distlock.annotation.DistributedLock @DistributedLock} call could not be
 * computed: the expression threw, or gave {@code null}, a blank string or a string that is no valid lock name
 * (too long, a lone surrogate). The method was not invoked.
 * {@link #getLockName()} is the lock's label, since there is no key.
 */
public class LockKeyEvaluationException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    private final String expression;

    LockKeyEvaluationException(String label, String method, String expression, String problem, Throwable cause) {
        super(label, "@DistributedLock on " + method + ": name expression '" + expression + "' " + problem
                + "; the method was not invoked", cause);
        this.expression = expression;
    }

    /** The name expression that failed. */
    public String getExpression() {
        return expression;
    }
}
