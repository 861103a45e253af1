package dev.distlock.aop;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The holds of the annotated calls running on a thread, innermost first: what {@link LockContext#current()} reads,
 * what a nested call looks for, and what a transaction begun on the thread checks before it commits.
 */
final class CallStack {

    /** Removed when empty, so that idle pooled threads keep nothing. */
    private static final ThreadLocal<ArrayDeque<CallHold>> STACK = new ThreadLocal<>();

    private CallStack() {
    }

    /** Runs {@code invoker} with {@code hold} as the innermost hold of this thread. */
    static Object runAs(CallHold hold, MethodInvoker invoker) throws Throwable {
        ArrayDeque<CallHold> stack = STACK.get();
        if (stack == null) {
            stack = new ArrayDeque<>(4);
            STACK.set(stack);
        }
        stack.push(hold);
        try {
            return invoker.invoke();
        } finally {
            stack.pop();
            if (stack.isEmpty()) {
                STACK.remove();
            }
        }
    }

    /** The hold of the innermost annotated call running on this thread, or {@code null}. */
    static CallHold innermost() {
        ArrayDeque<CallHold> stack = STACK.get();
        return stack != null ? stack.peek() : null;
    }

    /** The holds of the annotated calls running on this thread, innermost first. */
    static List<CallHold> holds() {
        ArrayDeque<CallHold> stack = STACK.get();
        return stack != null ? List.copyOf(stack) : List.of();
    }

    /**
     * The innermost hold of {@code key} from {@code registry} that no thread owns (acquired without blocking) among
     * the annotated calls running on this thread, or {@code null}: a call nested in it runs under it, since it cannot
     * re-enter it as it re-enters a hold of its thread.
     */
    static CallHold enclosingDetached(Object registry, String key) {
        ArrayDeque<CallHold> stack = STACK.get();
        if (stack != null) {
            for (CallHold outer : stack) {
                if (outer.isDetachedHoldOf(registry, key)) {
                    return outer;
                }
            }
        }
        return null;
    }
}
