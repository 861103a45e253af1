package dev.distlock.aop;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/** Picks the {@link ReturnHandler} for a method, or says why the method cannot be locked. */
final class ReturnHandlers {

    private static final boolean REACTOR_PRESENT =
            ClassUtils.isPresent("reactor.core.publisher.Mono", ReturnHandlers.class.getClassLoader());

    private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent(
            "kotlinx.coroutines.reactor.MonoKt", ReturnHandlers.class.getClassLoader());

    private static final String KOTLIN_FLOW = "kotlinx.coroutines.flow.Flow";

    private static final ReturnHandler COMPLETION_STAGE = new CompletionStageReturnHandler();

    private ReturnHandlers() {
    }

    /**
     * The handler for {@code method}.
     *
     * @throws IllegalArgumentException if the lock cannot follow the method's completion, with what is allowed
     */
    static ReturnHandler forMethod(Method method) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            // declared to return Object, but Spring hands the interceptor the body as a Mono and awaits what the
            // interceptor returns: locked like a Mono, for the body's whole run
            if (!REACTOR_PRESENT || !COROUTINES_REACTOR_PRESENT) {
                throw new IllegalArgumentException("the method is a Kotlin suspend function, which @DistributedLock "
                        + "locks as a Mono for its whole run: that needs reactor-core and kotlinx-coroutines-reactor on "
                        + "the classpath (Spring's own support for suspend functions in proxies needs them too); "
                        + "without them the body would run without the lock");
            }
            return ReactorReturnHandler.forMono();
        }
        return forType(method.getReturnType());
    }

    /**
     * The handler for methods declared to return {@code type}.
     *
     * @throws IllegalArgumentException if the lock cannot follow the type's completion, with what is allowed
     */
    private static ReturnHandler forType(Class<?> type) {
        if (type == CompletionStage.class || type == CompletableFuture.class) {
            return COMPLETION_STAGE;
        }
        // compared by name so that this class loads without Reactor
        if (REACTOR_PRESENT && type.getName().equals("reactor.core.publisher.Mono")) {
            return ReactorReturnHandler.forMono();
        }
        if (REACTOR_PRESENT && type.getName().equals("reactor.core.publisher.Flux")) {
            return ReactorReturnHandler.forFlux();
        }
        if (CompletionStage.class.isAssignableFrom(type) || Future.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("the return type " + type.getName() + " is not supported: the "
                    + "lock is held until an asynchronous result completes only for CompletionStage and "
                    + "CompletableFuture");
        }
        if (isKotlinFlow(type)) {
            ReturnHandler flow = REACTOR_PRESENT && COROUTINES_REACTOR_PRESENT ? FlowReturnHandler.forType(type) : null;
            if (flow == null) {
                throw new IllegalArgumentException("the return type " + type.getName() + " is a Kotlin Flow, which "
                        + "@DistributedLock locks for each collection like a Flux: that needs reactor-core and "
                        + "kotlinx-coroutines-reactor on the classpath; without them the lock would be released before "
                        + "the flow is collected");
            }
            return flow;
        }
        if (isReactive(type)) {
            throw new IllegalArgumentException("the return type " + type.getName() + " is not supported: of the "
                    + "reactive types only Mono and Flux are (with reactor-core on the classpath)");
        }
        return new BlockingReturnHandler(type);
    }

    /**
     * Whether a skipped call of {@code method} ({@code onTimeout = SKIP}), which returns {@code null} (a suspend
     * function: completes with it), hands that to a Kotlin caller whose declared return type is not nullable. Known
     * only with kotlin-reflect (which Spring also needs for suspend functions behind a proxy); false without it.
     */
    static boolean skippedCallBreaksKotlinNullSafety(Method method, ReturnHandler handler) {
        if (!KotlinDetector.isKotlinReflectPresent() || !KotlinDetector.isKotlinType(method.getDeclaringClass())) {
            return false;
        }
        boolean suspending = KotlinDetector.isSuspendingFunction(method);
        if (!suspending && (!(handler instanceof BlockingReturnHandler)
                || BlockingReturnHandler.nothing(method.getReturnType()) != null)) {
            return false; // an empty Mono, Flux or stage, a primitive's zero, Optional.empty(): none is null
        }
        MethodParameter returned = MethodParameter.forExecutable(method, -1);
        Class<?> type = returned.getParameterType();
        boolean nothingReturned = type == void.class || type == Void.class || type.getName().equals("kotlin.Unit");
        return !nothingReturned && !returned.isOptional();
    }

    private static boolean isKotlinFlow(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        if (loader == null || !ClassUtils.isPresent(KOTLIN_FLOW, loader)) {
            return false;
        }
        return ClassUtils.resolveClassName(KOTLIN_FLOW, loader).isAssignableFrom(type);
    }

    private static boolean isReactive(Class<?> type) {
        return Flow.Publisher.class.isAssignableFrom(type)
                || type.getName().startsWith("reactor.core.publisher.")
                || type.getName().equals("org.reactivestreams.Publisher")
                || ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null;
    }
}
