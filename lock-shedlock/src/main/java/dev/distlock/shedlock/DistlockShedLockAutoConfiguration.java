package dev.distlock.shedlock;

import dev.distlock.core.LockRegistry;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * ShedLock's {@link LockProvider} on distlock, when ShedLock is on the class path and the application has a distlock
 * {@link LockRegistry} (the starter's, say) and no lock provider of its own: {@code @SchedulerLock} jobs then lock
 * through distlock ({@code @EnableSchedulerLock} stays the application's, as with any ShedLock provider).
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "dev.distlock.autoconfigure.DistlockAutoConfiguration")
@ConditionalOnClass(LockProvider.class)
@ConditionalOnBean(LockRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
public final class DistlockShedLockAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockProvider.class)
    DistlockLockProvider distlockLockProvider(LockRegistry locks) {
        return new DistlockLockProvider(locks);
    }
}
