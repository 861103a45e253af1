package dev.distlock.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.ResolvableType;

/** Which annotated methods the calls of each {@link AdviceMode} cannot lock: the one rule, for the startup check. */
final class AdviceModes {

    private AdviceModes() {
    }

    /** Why calls of {@code method} would not be locked in {@code mode}, or {@code null} when they are. */
    static String unreachable(Method method, AdviceMode mode) {
        if (mode == AdviceMode.ASPECTJ) {
            if (KotlinDetector.isSuspendingFunction(method) && returnsAsynchronousResult(method)) {
                return "the method is a Kotlin suspend function whose result is itself asynchronous (" + suspendResult(
                        method).getTypeName() + "), which the woven call would hand on after its lock was released; "
                        + "allowed: a suspend function returning a value, a function (not suspend) returning Flow, Mono "
                        + "or Flux, or distlock.advice-mode=proxy";
            }
            return null; // weaving reaches every execution, suspend functions included
        }
        int unproxyable = method.getModifiers() & (Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL);
        if (unproxyable != 0) {
            return "the method is " + Modifier.toString(unproxyable) + ", so calls do not pass through Spring's "
                    + "proxy and it would run without the lock; allowed: a non-private, non-static, non-final method, "
                    + "or distlock.advice-mode=aspectj with the class woven by AspectJ (dev.distlock:lock-aspectj)";
        }
        return null;
    }

    /** Whether a suspend function's result is a type Spring adapts as asynchronous (a Flow, a Publisher, a future). */
    private static boolean returnsAsynchronousResult(Method method) {
        Class<?> result = ResolvableType.forType(suspendResult(method)).resolve(Object.class);
        return result != Object.class && ReactiveAdapterRegistry.getSharedInstance().getAdapter(result) != null;
    }

    /** The declared result of a suspend function: its continuation's type argument ({@code Continuation<? super T>}). */
    private static Type suspendResult(Method method) {
        Type[] parameters = method.getGenericParameterTypes();
        if (parameters.length > 0 && parameters[parameters.length - 1] instanceof ParameterizedType continuation
                && continuation.getActualTypeArguments()[0] instanceof WildcardType result
                && result.getLowerBounds().length == 1) {
            return result.getLowerBounds()[0];
        }
        return Object.class;
    }
}
