package dev.distlock.actuate;

import static dev.distlock.actuate.Waiting.awaitUntil;
import static dev.distlock.actuate.Waiting.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.actuate.DistlocksEndpoint.LockInfoDescriptor;
import dev.distlock.actuate.DistlocksEndpoint.Waiter;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.support.StoreLockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An operator asks one instance who holds a lock that another instance holds:
 * {@code GET /actuator/distlocks/{name}} names the holder's application, host and process, since when it
 * holds, and how many wait, and the queue: the processes waiting, in the order the lock goes to them, each named as
 * its registry announced itself, and an empty queue once they were served. Application contexts on one real
 * redis-server stand for the instances.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockHolderLookupIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void anyInstanceNamesTheInstanceThatHoldsALockAndCountsTheWaiters() throws Exception {
        ConfigurableApplicationContext billing = start("billing");
        ConfigurableApplicationContext shipping = start("shipping");
        FencedLock held = billing.getBean(LockRegistry.class).obtain("order:42");
        held.lock();
        FencedLock wanted = shipping.getBean(LockRegistry.class).obtain("order:42");
        CompletableFuture<Boolean> waiting = waitFor(wanted, Duration.ofSeconds(30));
        DistlocksEndpoint operatorView = shipping.getBean(DistlocksEndpoint.class);
        awaitUntil(() -> {
            LockInfoDescriptor info = operatorView.lock("order:42").locks().get(0);
            return info.holder() != null && info.waiting() == 1;
        });

        LockInfoDescriptor info = operatorView.lock("order:42").locks().get(0);

        assertThat(info.registry()).isEqualTo("lockRegistry");
        assertThat(info.key()).isEqualTo("distlock:{order:42}");
        assertThat(info.held()).isTrue();
        assertThat(info.holder().application()).isEqualTo("billing");
        assertThat(info.holder().pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(info.holder().host()).isNotBlank();
        assertThat(info.fencingToken()).isEqualTo(held.fencingToken());
        assertThat(info.heldSince()).isNotNull();
        assertThat(info.remainingLeaseMillis()).isPositive();
        assertThat(info.waiting()).isOne();
        held.unlock();
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(billing.getBean(DistlocksEndpoint.class).lock("order:42").locks().get(0).held()).isFalse();
    }

    @Test
    void theQueueNamesEachWaitingInstanceInArrivalOrderAndEmptiesOnceTheyAreServed() throws Exception {
        ConfigurableApplicationContext billing = start("billing");
        ConfigurableApplicationContext shipping = start("shipping");
        ConfigurableApplicationContext invoicing = start("invoicing");
        DistlocksEndpoint operatorView = billing.getBean(DistlocksEndpoint.class);
        FencedLock held = billing.getBean(LockRegistry.class).obtain("order:42");
        held.lock();

        CompletableFuture<Boolean> shippingWaits = waitFor(shipping.getBean(LockRegistry.class).obtain("order:42"), Duration.ofSeconds(30));
        awaitUntil(() -> lookUp(operatorView).queue().size() == 1);
        CompletableFuture<Boolean> invoicingWaits = waitFor(invoicing.getBean(LockRegistry.class).obtain("order:42"), Duration.ofSeconds(30));
        awaitUntil(() -> {
            List<Waiter> queue = lookUp(operatorView).queue();
            return queue.size() == 2 && queue.stream().allMatch(waiter -> waiter.process() != null);
        });

        LockInfoDescriptor info = lookUp(operatorView);

        assertThat(info.holder().application()).isEqualTo("billing");
        assertThat(info.fencingToken()).isEqualTo(held.fencingToken());
        assertThat(info.remainingLeaseMillis()).isPositive();
        assertThat(info.waiting()).isEqualTo(2);
        assertThat(info.queue()).extracting(waiter -> waiter.process().application())
                .containsExactly("shipping", "invoicing");
        assertThat(info.queue()).extracting(Waiter::instance)
                .containsExactly(instanceOf(shipping), instanceOf(invoicing));
        assertThat(info.queue()).allSatisfy(waiter -> {
            assertThat(waiter.process().instance()).isEqualTo(waiter.instance());
            assertThat(waiter.process().pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(waiter.process().host()).isNotBlank();
            assertThat(waiter.process().started()).isNotNull();
        });
        assertThat(shipping.getBean(DistlocksEndpoint.class).lock("order:42").locks().get(0).queue())
                .as("the same from a waiting instance").isEqualTo(info.queue());

        held.unlock();
        assertThat(shippingWaits.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(invoicingWaits.get(30, TimeUnit.SECONDS)).isTrue();
        LockInfoDescriptor served = lookUp(operatorView);
        assertThat(served.held()).isFalse();
        assertThat(served.waiting()).isZero();
        assertThat(served.queue()).isEmpty();
    }

    private static LockInfoDescriptor lookUp(DistlocksEndpoint endpoint) {
        return endpoint.lock("order:42").locks().get(0);
    }


    private static String instanceOf(ConfigurableApplicationContext instance) {
        return ((StoreLockRegistry) instance.getBean(LockRegistry.class)).identity().instance();
    }

    private ConfigurableApplicationContext start(String application) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Instance.class)
                .web(WebApplicationType.NONE)
                .properties("spring.application.name=" + application,
                        "spring.data.redis.port=" + redis.server().port(),
                        "management.endpoints.access.default=read-only",
                        "management.endpoints.web.exposure.include=distlocks",
                        "spring.main.banner-mode=off")
                .run();
        instances.add(context);
        return context;
    }


    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Instance {
    }
}
