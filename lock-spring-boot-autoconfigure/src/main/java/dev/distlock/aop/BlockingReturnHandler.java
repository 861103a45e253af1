package dev.distlock.aop;

import java.lang.reflect.Array;
import java.util.Optional;

/**
 * Plain and {@code void} methods: the lock is held exactly while the method runs on the calling thread. A call
 * nested in one that holds the same lock on this thread re-enters that hold, or runs under it when no thread owns it
 * (a {@code Mono} or {@code CompletionStage} method's body).
 */
final class BlockingReturnHandler implements ReturnHandler {

    /** What a skipped call returns. */
    private final Object nothing;

    BlockingReturnHandler(Class<?> returnType) {
        this.nothing = nothing(returnType);
    }

    @Override
    public Object execute(LockCall call) throws Throwable {
        CallHold outer = call.isHeldByCurrentThread() ? null : call.enclosingDetached();
        if (outer != null) {
            return call.invokeUnder(outer);
        }
        CallHold held = call.acquire();
        if (held == null) {
            return nothing;
        }
        Object result = call.invokeOrRelease(held);
        held.release();
        return result;
    }

    /** {@code null}, {@code Optional.empty()}, or the zero/false of a primitive. */
    static Object nothing(Class<?> type) {
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (type.isPrimitive() && type != void.class) {
            // an element of a fresh primitive array is that primitive's default value
            return Array.get(Array.newInstance(type, 1), 0);
        }
        return null;
    }
}
