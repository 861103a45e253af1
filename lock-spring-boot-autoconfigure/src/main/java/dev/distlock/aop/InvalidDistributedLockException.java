package dev.distlock.aop;

import java.util.List;

/**
 * Some {@link dev.distlock.annotation.DistributedLock @DistributedLock} declarations of the application
 * cannot work; thrown at startup, listing every problem, each naming the method, the attribute and what is
 * allowed.
 *
 * @since 0.1.0
 */
public class InvalidDistributedLockException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    InvalidDistributedLockException(List<String> problems) {
        super("Invalid @DistributedLock declarations:\n - " + String.join("\n - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** The problems, one per declaration and attribute. */
    public List<String> getProblems() {
        return problems;
    }
}
