package dev.distlock.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * BlockHound finds distlock's integration on the class path, and every method it allows is still where the timer's
 * queue is locked: a renamed or moved method would silently lose its allowance (the BlockHound test in the Spring
 * module shows the allowance at work, on Reactor's threads, under load).
 */
class DistlockBlockHoundIntegrationTest {

    @Test
    void blockHoundsServiceLoaderFindsIt() {
        assertThat(ServiceLoader.load(BlockHoundIntegration.class).stream().map(ServiceLoader.Provider::type))
                .contains(DistlockBlockHoundIntegration.class);
    }

    @Test
    void everyAllowedMethodIsDeclaredInItsClass() throws ClassNotFoundException {
        for (var allowed : DistlockBlockHoundIntegration.TIMER_QUEUE_LOCK.entrySet()) {
            assertThat(Arrays.stream(Class.forName(allowed.getKey()).getDeclaredMethods()).map(Method::getName))
                    .as(allowed.toString())
                    .contains(allowed.getValue());
        }
    }
}
