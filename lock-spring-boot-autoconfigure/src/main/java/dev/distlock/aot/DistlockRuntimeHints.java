package dev.distlock.aot;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a native image needs that distlock reads reflectively or as resources: the Lua scripts of the Redis
 * registry ({@code dev/distlock/redis/*.lua}, read from the class path when the registry is first used) and
 * the {@code #root} object of {@code @DistributedLock} name expressions, whose getters SpEL calls. Registered
 * in {@code META-INF/spring/aot.factories}; the argument types that name expressions read are registered
 * per application by {@link DistributedLockBeanFactoryAotProcessor}.
 *
 * @since 0.1.0
 */
public final class DistlockRuntimeHints implements RuntimeHintsRegistrar {

    /** The scripts, as a resource pattern. */
    public static final String SCRIPTS = "dev/distlock/redis/*.lua";

    /** The {@code #root} object of name expressions (package-private, so named here). */
    static final String EXPRESSION_ROOT = "dev.distlock.aop.LockExpressionRoot";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS);
        hints.reflection().registerType(TypeReference.of(EXPRESSION_ROOT), MemberCategory.INVOKE_PUBLIC_METHODS);
    }
}
