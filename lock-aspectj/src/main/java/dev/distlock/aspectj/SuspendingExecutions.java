package dev.distlock.aspectj;

import dev.distlock.aop.LockAspectSupport;
import dev.distlock.aop.MethodInvoker;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.jvm.internal.CoroutineStackFrame;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.reactor.MonoKt;
import org.aspectj.lang.ProceedingJoinPoint;
import reactor.core.publisher.Mono;

/**
 * Locks the woven execution of a Kotlin {@code suspend} function the way Spring's proxies do: the body becomes a
 * {@code Mono} (a coroutine of its own, in the caller's context without the caller's {@code Job}, as Spring's
 * {@code AopUtils} starts it), which the lock support locks like any annotated {@code Mono}, and the caller's
 * coroutine awaits it ({@code awaitSingleOrNull}, as Spring's proxies do). So the lock is held while the body
 * suspends, released when it completes or fails, and withdrawn or released when the caller is cancelled (the await
 * cancels the subscription).
 *
 * <p>The compiled body of a suspend function is a state machine that, when it resumes after a suspension, calls the
 * function again with its own continuation: that execution is woven too, and must go on with the body rather than
 * lock again. Such a call is told by its continuation: the function's own frame, marked resuming (the Kotlin
 * compiler sets the sign bit of the frame's {@code label} before the call and the body clears it; the standard
 * library's debug metadata reads the field likewise). A call of the function from its own body (recursion) passes
 * the same frame unmarked, and is locked.
 *
 * <p>Only loaded when kotlinx-coroutines-reactor is on the classpath.
 */
final class SuspendingExecutions {

    private static final ClassValue<Field> LABELS = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> frameType) {
            try {
                Field label = frameType.getDeclaredField("label");
                if (label.getType() != int.class) {
                    return null;
                }
                label.setAccessible(true);
                return label;
            } catch (NoSuchFieldException | RuntimeException unreadable) {
                return null;
            }
        }
    };

    private SuspendingExecutions() {
    }

    /**
     * Whether this execution of {@code method} is its body resuming after a suspension, not a call: the last
     * argument is the function's own frame, marked resuming. Where the mark cannot be read, any call with the
     * function's own frame counts as resuming (a recursive call then runs under the outer call's hold).
     */
    static boolean resumes(Method method, Object[] args) {
        Object continuation = args[args.length - 1];
        if (!(continuation instanceof CoroutineStackFrame frame) || marked(continuation) == Boolean.FALSE) {
            return false; // a caller's frame, running: the common case, told without reading the frame's metadata
        }
        StackTraceElement function = frame.getStackTraceElement();
        return function != null && function.getMethodName().equals(method.getName())
                && sameClass(function.getClassName(), method.getDeclaringClass());
    }

    /** Whether the frame's {@code label} carries the resuming mark; {@code null} if it has none or it is unreadable. */
    private static Boolean marked(Object frame) {
        Field label = LABELS.get(frame.getClass());
        if (label == null) {
            return null;
        }
        try {
            return label.getInt(frame) < 0;
        } catch (IllegalAccessException unreadable) {
            return null;
        }
    }

    /**
     * Runs the call under its lock and returns what the suspend function returns to its caller: the result, or
     * {@code COROUTINE_SUSPENDED} while the lock is awaited or the body suspends.
     */
    @SuppressWarnings("unchecked")
    static Object lock(LockAspectSupport support, Method method, Class<?> targetClass, Object target, Object[] args,
            ProceedingJoinPoint execution) throws Throwable {
        Continuation<Object> caller = (Continuation<Object>) args[args.length - 1];
        CoroutineContext context = caller.getContext().minusKey(Job.Key);
        MethodInvoker body = () -> MonoKt.mono(context, (scope, continuation) -> proceed(execution, args, continuation))
                .filter(result -> result != Unit.INSTANCE);
        Object result = support.invoke(method, targetClass, target, args, body);
        Mono<Object> locked = result instanceof Mono<?> mono ? (Mono<Object>) mono : Mono.justOrEmpty(result);
        return MonoKt.awaitSingleOrNull(locked, caller);
    }

    /** Runs the body with {@code continuation}, the coroutine of the subscription, in place of the caller's. */
    private static Object proceed(ProceedingJoinPoint execution, Object[] args, Continuation<?> continuation) {
        Object[] call = args.clone();
        call[call.length - 1] = continuation;
        try {
            return execution.proceed(call);
        } catch (Throwable failure) {
            // the coroutine completes with what the body threw, checked or not, as the suspend function would
            throw SuspendingExecutions.<RuntimeException>rethrow(failure);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T rethrow(Throwable failure) throws T {
        throw (T) failure;
    }

    /** The debug metadata names the class, prefixed with its module's name when it has one. */
    private static boolean sameClass(String described, Class<?> type) {
        return described.equals(type.getName()) || described.endsWith("/" + type.getName());
    }
}
