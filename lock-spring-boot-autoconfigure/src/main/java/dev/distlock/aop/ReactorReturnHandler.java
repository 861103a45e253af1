package dev.distlock.aop;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code Mono}/{@code Flux} methods: each subscription acquires the lock (blocking, so on
 * {@link Schedulers#boundedElastic()}), then invokes the method and subscribes to what it returned, and
 * releases when that completes, fails or is cancelled, before the signal reaches the subscriber. Failures
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
            LockContext outer = ReactiveLockContext.enclosing(context, call.registry(), call.key());
            if (outer != null) {
                return body(call, outer);
            }
            return Flux.usingWhen(acquire(call), held -> body(call, held),
                    held -> onBoundedElastic(held::release),
                    (held, error) -> onBoundedElastic(() -> held.releaseAfter(error)),
                    held -> onBoundedElastic(held::release));
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

    private static Mono<LockContext> acquire(LockCall call) {
        return Mono.fromCallable(call::acquireDetached)
                .subscribeOn(Schedulers.boundedElastic())
                // a hold acquired after the subscriber cancelled is dropped by Reactor: release it
                .doOnDiscard(LockContext.class, LockContext::releaseQuietly);
    }

    /** Invokes the method on subscription, with {@code held} visible to it and to its pipeline. */
    private static Flux<Object> body(LockCall call, LockContext held) {
        return Flux.defer(() -> publisher(call, held))
                .contextWrite(context -> ReactiveLockContext.with(context, call.registry(), held));
    }

    private static Publisher<Object> publisher(LockCall call, LockContext held) {
        try {
            Object result = call.invoke(held);
            return result != null ? asPublisher(result) : Flux.empty();
        } catch (Throwable failure) {
            return Flux.error(failure);
        }
    }

    @SuppressWarnings("unchecked")
    private static Publisher<Object> asPublisher(Object result) {
        return (Publisher<Object>) result;
    }

    /** A release is a backend call: keep it off non-blocking threads. */
    private static Mono<Void> onBoundedElastic(Runnable release) {
        return Mono.<Void>fromRunnable(release).subscribeOn(Schedulers.boundedElastic());
    }
}
