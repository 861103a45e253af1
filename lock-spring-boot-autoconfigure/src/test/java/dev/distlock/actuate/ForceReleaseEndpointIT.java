package dev.distlock.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.actuate.ForceReleasingDistlocksEndpoint.ForcedReleaseDescriptor;
import dev.distlock.actuate.ForceReleasingDistlocksEndpoint.ForcedReleasesDescriptor;
import dev.distlock.actuate.ForceReleasingDistlocksEndpoint.Outcome;
import dev.distlock.autoconfigure.DistlockActuatorAutoConfiguration;
import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import dev.distlock.autoconfigure.DistlockMetricsAutoConfiguration;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.micrometer.DistlockMetrics;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.invoke.convert.ConversionServiceParameterValueMapper;
import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointHttpMethod;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpointDiscoverer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * An operator frees a hung holder's lock with {@code DELETE /actuator/distlocks/{name}?fencingToken=...}, on a real
 * redis-server: the operation as Actuator's web discovery maps it (arguments as text, as from a request), only when
 * {@code distlock.actuator.force-release.enabled=true}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class ForceReleaseEndpointIT {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistlockAutoConfiguration.class,
                    DistlockMetricsAutoConfiguration.class, DistlockActuatorAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues("management.endpoints.web.exposure.include=distlocks", "spring.application.name=billing",
                    "spring.data.redis.host=" + redis.server().host(),
                    "spring.data.redis.port=" + redis.server().port(), "distlock.lease=900ms");

    @Test
    void aForcedReleaseFreesOnlyTheHoldItNamesForTheWaiterAndItsOwnerFindsItLost(CapturedOutput output) {
        runner.withPropertyValues("distlock.actuator.force-release.enabled=true").run(context -> {
            redis.server().command("FLUSHALL");
            LockRegistry registry = context.getBean(LockRegistry.class);
            FencedLock hung = registry.obtain("report");
            hung.lock();
            long fence = hung.fencingToken();
            CompletableFuture<Long> waiter = waitInAnotherProcess(context, "report");
            awaitUntil(() -> registry.inspect("report").waiting() == 1);

            assertThat(forceRelease(context, "report", fence - 1)).singleElement().satisfies(answer -> {
                assertThat(answer.outcome()).isEqualTo(Outcome.OTHER_HOLDER);
                assertThat(answer.currentFencingToken()).isEqualTo(fence);
            });
            assertThat(forceRelease(context, "report", fence)).singleElement().satisfies(answer -> {
                assertThat(answer.registry()).isEqualTo("lockRegistry");
                assertThat(answer.key()).isEqualTo("distlock:{report}");
                assertThat(answer.outcome()).isEqualTo(Outcome.RELEASED);
                assertThat(answer.holder().application()).isEqualTo("billing");
            });

            assertThat(waiter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the waiter's token").isGreaterThan(fence);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            awaitUntil(() -> count(meters, DistlockMetrics.LOST) == 1);
            assertThatThrownBy(hung::unlock).isInstanceOf(LockLostException.class);
            assertThat(meters.get(DistlockMetrics.FORCE_RELEASED).tag(DistlockMetrics.REGISTRY_TAG, "lockRegistry")
                    .counter().count()).isEqualTo(1);
            assertThat(output).contains("Lock 'report' (key distlock:{report}, registry 'lockRegistry') was "
                    + "force-released by 'alice': the hold with fencing token " + fence + " of application billing");
            assertThat(forceRelease(context, "report", fence)).singleElement()
                    .satisfies(answer -> assertThat(answer.outcome()).isEqualTo(Outcome.NOT_HELD));
        });
    }

    @Test
    void withoutThePropertyTheEndpointHasNoWriteOperation() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(DistlocksEndpoint.class)
                    .doesNotHaveBean(ForceReleasingDistlocksEndpoint.class);
            assertThat(distlocks(context).getOperations()).isNotEmpty().allSatisfy(operation -> assertThat(
                    operation.getRequestPredicate().getHttpMethod()).isEqualTo(WebEndpointHttpMethod.GET));
            assertThat(deleteOperation(context)).isEmpty();
        });
    }

    @Test
    void locksInMemoryAreForceReleasedToo() {
        runner.withPropertyValues("distlock.store=memory", "distlock.actuator.force-release.enabled=true")
                .run(context -> {
                    FencedLock hung = context.getBean(LockRegistry.class).obtain("report");
                    hung.lock();

                    assertThat(forceRelease(context, "report", hung.fencingToken())).singleElement()
                            .satisfies(answer -> assertThat(answer.outcome()).isEqualTo(Outcome.RELEASED));
                    assertThat(context.getBean(LockRegistry.class).inspect("report").held()).isFalse();
                    assertThatThrownBy(hung::unlock).isInstanceOf(LockLostException.class);
                });
    }

    /** Another process's registry on the same Redis waits for {@code name}; completes with its fencing token. */
    private static CompletableFuture<Long> waitInAnotherProcess(ApplicationContext context, String name) {
        RedisLockRegistry other = RedisLockRegistry.builder(context.getBean(RedisConnectionFactory.class)).build();
        return CompletableFuture.supplyAsync(() -> {
            try (other) {
                FencedLock lock = other.obtain(name);
                if (!lock.tryLock(PATIENCE)) {
                    return -1L;
                }
                long fence = lock.fencingToken();
                lock.unlock();
                return fence;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return -1L;
            }
        });
    }

    /** Calls the DELETE operation as a request of user {@code alice} would, with its arguments as text. */
    private static List<ForcedReleaseDescriptor> forceRelease(ApplicationContext context, String name, long fence) {
        WebOperation delete = deleteOperation(context).orElseThrow();
        Principal alice = () -> "alice";
        SecurityContext security = new SecurityContext() {
            @Override
            public Principal getPrincipal() {
                return alice;
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }
        };
        Object answer = delete.invoke(new InvocationContext(security,
                Map.of("name", name, "fencingToken", Long.toString(fence))));
        return ((ForcedReleasesDescriptor) answer).locks();
    }

    private static Optional<WebOperation> deleteOperation(ApplicationContext context) {
        return distlocks(context).getOperations().stream()
                .filter(operation -> operation.getRequestPredicate().getHttpMethod() == WebEndpointHttpMethod.DELETE)
                .findFirst();
    }

    /** The endpoint as Actuator's web discovery maps it (the discovery a web application runs). */
    private static ExposableWebEndpoint distlocks(ApplicationContext context) {
        WebEndpointDiscoverer discoverer = new WebEndpointDiscoverer(context, new ConversionServiceParameterValueMapper(),
                EndpointMediaTypes.DEFAULT, List.of(), List.of(), List.of(), List.of(), List.of());
        return discoverer.getEndpoints().stream()
                .filter(endpoint -> endpoint.getEndpointId().toString().equals("distlocks")).findFirst().orElseThrow();
    }

    private static double count(MeterRegistry meters, String name) {
        return meters.find(name).counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    private static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within " + PATIENCE).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
