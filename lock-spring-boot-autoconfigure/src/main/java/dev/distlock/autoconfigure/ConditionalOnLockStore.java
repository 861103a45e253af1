package dev.distlock.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when the store distlock uses is {@link #value()}: {@code distlock.store} if set, else
 * {@code redlock} when {@code distlock.redlock.nodes} is set, else {@code redis}
 * ({@link DistlockProperties#getStore()}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(OnLockStoreCondition.class)
@interface ConditionalOnLockStore {

    /** The store that must be in use. */
    DistlockProperties.Store value();
}
