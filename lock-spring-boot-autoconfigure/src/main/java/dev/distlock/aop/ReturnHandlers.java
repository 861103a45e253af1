package dev.distlock.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/** Picks the {@link ReturnHandler} for a declared return type, or says why the type cannot be locked. */
final class ReturnHandlers {

    private static final boolean REACTOR_PRESENT =
            ClassUtils.isPresent("reactor.core.publisher.Mono", ReturnHandlers.class.getClassLoader());

    private static final ReturnHandler COMPLETION_STAGE = new CompletionStageReturnHandler();

    private ReturnHandlers() {
    }

    /**
     * The handler for methods declared to return {@code type}.
     *
     * @throws IllegalArgumentException if the lock cannot follow the type's completion, with what is allowed
     */
    static ReturnHandler forType(Class<?> type) {
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
        if (isReactive(type)) {
            throw new IllegalArgumentException("the return type " + type.getName() + " is not supported: of the "
                    + "reactive types only Mono and Flux are (with reactor-core on the classpath)");
        }
        return new BlockingReturnHandler(type);
    }

    private static boolean isReactive(Class<?> type) {
        return Flow.Publisher.class.isAssignableFrom(type)
                || type.getName().startsWith("reactor.core.publisher.")
                || type.getName().equals("org.reactivestreams.Publisher")
                || ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null;
    }
}
