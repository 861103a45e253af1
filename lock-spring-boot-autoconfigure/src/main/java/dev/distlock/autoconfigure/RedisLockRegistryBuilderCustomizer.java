package dev.distlock.autoconfigure;

import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.redis.RedisLockRegistry;

/**
 * Customizes the builder of the auto-configured {@link RedisLockRegistry} before it is built, after the
 * {@code distlock.*} properties were applied. Every bean of this type is applied, in {@code @Order} /
 * {@link org.springframework.core.Ordered} order, so later ones see (and may override) what earlier ones set.
 *
 * <pre>{@code
 * @Bean
 * RedisLockRegistryBuilderCustomizer auditLocks(AuditLog audit) {
 *     return builder -> builder.listener(new AuditingLockListener(audit));
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface RedisLockRegistryBuilderCustomizer {

    /** Customizes {@code builder}. */
    void customize(RedisLockRegistry.Builder builder);
}
