package dev.distlock.aop;

import org.reactivestreams.Publisher;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import reactor.core.publisher.Flux;

/**
 * Kotlin {@code Flow} methods: each collection of the returned flow is one subscription of the
 * {@link ReactorReturnHandler#forFlux() Flux handler}, so the lock is acquired when collecting starts (without
 * blocking a thread), held while the method's flow emits, and released when it completes, fails or its collector
 * stops (cancelled, or done early as with {@code take(n)}). A flow collected twice locks twice. The flow and the
 * {@code Flux} are converted by Spring's {@link ReactiveAdapterRegistry} (kotlinx-coroutines-reactor), which also
 * carries the Reactor context into the flow: a nested annotated call on the same name runs under the outer hold.
 *
 * <p>Only loaded when reactor-core and kotlinx-coroutines-reactor are on the classpath.
 */
final class FlowReturnHandler implements ReturnHandler {

    private final ReturnHandler flux = ReactorReturnHandler.forFlux();
    private final ReactiveAdapter adapter;

    private FlowReturnHandler(ReactiveAdapter adapter) {
        this.adapter = adapter;
    }

    /** The handler for methods declared to return {@code flowType}, or {@code null} if Spring cannot adapt it. */
    static ReturnHandler forType(Class<?> flowType) {
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(flowType);
        return adapter != null && !adapter.isNoValue() ? new FlowReturnHandler(adapter) : null;
    }

    @Override
    public Object execute(LockCall call) throws Throwable {
        return adapter.fromPublisher((Publisher<?>) flux.execute(call));
    }

    @Override
    public Object failed(RuntimeException failure) {
        return adapter.fromPublisher(Flux.error(failure));
    }

    @Override
    public boolean invokesPerSubscription() {
        return true;
    }
}
