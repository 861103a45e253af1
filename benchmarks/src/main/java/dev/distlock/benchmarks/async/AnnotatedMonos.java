package dev.distlock.benchmarks.async;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.DistributedLockInterceptor;
import dev.distlock.aop.LockDefaults;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.List;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import reactor.core.publisher.Mono;

/**
 * Work declared as a WebFlux service declares it: {@code Mono} methods under {@link DistributedLock}, called through
 * the proxy Spring would make (the starter's interceptor and advisor, without an application context).
 */
public class AnnotatedMonos {

    private final Duration body;

    /** For the proxy's subclass. */
    protected AnnotatedMonos() {
        this(Duration.ZERO);
    }

    private AnnotatedMonos(Duration body) {
        this.body = body;
    }

    /**
     * The proxy of an {@code AnnotatedMonos} whose bodies take {@code body}, on {@code registry}; a call waits at
     * most {@code wait} for its lock.
     */
    static AnnotatedMonos proxy(LockRegistry registry, Duration body, Duration wait) {
        DistributedLockInterceptor interceptor = new DistributedLockInterceptor(() -> registry,
                new LockDefaults(wait, Duration.ofSeconds(30), true), new DefaultListableBeanFactory());
        ProxyFactory factory = new ProxyFactory(new AnnotatedMonos(body));
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new DistributedLockAdvisor(interceptor));
        return (AnnotatedMonos) factory.getProxy();
    }

    /**
     * All calls on one name: adds {@code arrival} to {@code starts} when the body starts (bodies run one at a time, so
     * that is the order the lock was granted in), then {@code body} of non-blocking work.
     */
    @DistributedLock(name = "'async-mono'")
    public Mono<Integer> oneName(int arrival, List<Integer> starts) {
        return Mono.defer(() -> {
            starts.add(arrival);
            return Mono.delay(body).thenReturn(arrival);
        });
    }

    /** Each call on a name of its own, trying once. */
    @DistributedLock(name = "'async-mono:' + #name", timeout = "0")
    public Mono<Integer> distinctName(int name) {
        return Mono.just(name);
    }
}
