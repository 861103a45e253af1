package dev.distlock.aop;

import org.reactivestreams.Publisher;
import org.springframework.core.ReactiveAdapterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code Mono}/{@code Flux} methods (and Kotlin suspend functions, which Spring hands over as a {@code Mono}): each
 * subscription acquires the lock without blocking any thread ({@link dev.distlock.core.FencedLock#tryLockAsync}: a
 * waiting subscription is a pending future, and cancelling it leaves the queue), then invokes the method and
 * subscribes to what it returned, and releases without blocking when that completes, fails or is cancelled,
 * before the signal reaches the subscriber. The method is invoked on the thread that completed the acquisition. Failures
 * to lock arrive as error signals; a skipped call is empty. A subscription nested in one that holds the
 * same lock (seen through the Reactor context) runs under the outer hold. The hold belongs to no thread,
 * so a blocking annotated call on the same key made from inside the pipeline, or a Mono/Flux on the same
 * key subscribed from inside a blocking annotated call, waits for the lock like any other caller.
 *
 * <p>Only loaded when reactor-core is on the classpath.
 */
final class ReactorReturnHandler implements ReturnHandler {

    private final boolean flux;

    private ReactorReturnHandler(boolean flux) {
        this.flux = flux;
    }

    static ReturnHandler forMono() {
        return new ReactorReturnHandler(false);
    }

    static ReturnHandler forFlux() {
        return new ReactorReturnHandler(true);
    }

    @Override
    public Object execute(LockCall call) {
        Flux<Object> locked = Flux.deferContextual(context -> {
            CallHold outer = ReactiveLockContext.enclosing(context, call.registry(), call.key());
            if (outer != null) {
                return body(call, outer);
            }
            return Flux.usingWhen(acquire(call), held -> body(call, held),
                    held -> Mono.fromCompletionStage(() -> held.releaseAsync(null)).onErrorMap(ReleaseFailure::new),
                    (held, error) -> Mono.fromCompletionStage(() -> held.releaseAsync(error)),
                    held -> Mono.fromCompletionStage(() -> held.releaseAsync(null)))
                    // Reactor wraps a failed release after completion in "Async resource cleanup failed": the
                    // subscriber gets the release's own failure (a LockLostException), as a blocking caller does
                    .onErrorMap(error -> error.getCause() instanceof ReleaseFailure release ? release.getCause()
                            : error);
        });
        return flux ? locked : locked.singleOrEmpty();
    }

    @Override
    public Object failed(RuntimeException failure) {
        return flux ? Flux.error(failure) : Mono.error(failure);
    }

    @Override
    public boolean invokesPerSubscription() {
        return true;
    }

    /** A failed release after the method completed, marked to be told from the method's own failures. */
    private static final class ReleaseFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ReleaseFailure(Throwable failure) {
            super(failure.getMessage(), failure, false, false);
        }
    }

    /** Acquires without blocking: the wait is the registry's pending future, cancelled if the subscriber leaves. */
    private static Mono<CallHold> acquire(LockCall call) {
        return Mono.fromCompletionStage(call::acquireAsync)
                // a hold that arrives after the subscriber cancelled is dropped by Reactor: release it
                .doOnDiscard(CallHold.class, CallHold::releaseQuietly);
    }

    /** Invokes the method on subscription, with {@code held} visible to it and to its pipeline. */
    private static Flux<Object> body(LockCall call, CallHold held) {
        return Flux.defer(() -> publisher(call, held))
                .contextWrite(context -> ReactiveLockContext.with(context, call.registry(), held));
    }

    private static Publisher<Object> publisher(LockCall call, CallHold held) {
        try {
            Object result = call.invoke(held);
            return result != null ? asPublisher(result) : Flux.empty();
        } catch (Throwable failure) {
            return Flux.error(failure);
        }
    }

    /** The method's result as a publisher: a {@code Mono} or {@code Flux}, or a Kotlin {@code Flow} adapted. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> asPublisher(Object result) {
        if (result instanceof Publisher<?> publisher) {
            return (Publisher<Object>) publisher;
        }
        return ReactiveAdapterRegistry.getSharedInstance().getAdapter(result.getClass()).toPublisher(result);
    }
}
