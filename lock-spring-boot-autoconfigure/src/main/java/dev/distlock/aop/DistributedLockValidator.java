package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockRegistry;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Fails the application at startup when a {@link DistributedLock @DistributedLock} of any bean cannot
 * work: a name that is not valid SpEL or refers to a parameter the method does not have or to a missing
 * bean, a timeout or lease that is not a duration (or is negative, or a lease under
 * {@link dev.distlock.core.Lease#MIN}), an unresolvable placeholder, an unsupported return type, {@code permits} or a read or write {@code mode} on a
 * registry without semaphores. Every problem is listed, each naming the method, the attribute
 * and what is allowed. It checks the operations the interceptor uses, so whatever passes here is exactly
 * what runs.
 */
public final class DistributedLockValidator implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;
    private final LockOperationSource operations;

    /**
     * @param beanFactory the factory whose beans are checked
     * @param interceptor the interceptor whose operations are checked (and cached for the first calls)
     */
    public DistributedLockValidator(ConfigurableListableBeanFactory beanFactory,
            DistributedLockInterceptor interceptor) {
        this(beanFactory, interceptor.operationSource());
    }

    /**
     * @param beanFactory the factory whose beans are checked
     * @param operations the operations the interceptor uses (and that are cached for the first calls)
     * @since 0.1.0
     */
    public DistributedLockValidator(ConfigurableListableBeanFactory beanFactory, LockOperationSource operations) {
        this.beanFactory = beanFactory;
        this.operations = operations;
    }

    /**
     * Checks every annotated method of every bean class.
     *
     * @throws InvalidDistributedLockException listing all problems, if there are any
     */
    @Override
    public void afterSingletonsInstantiated() {
        Set<LockOperation> checked = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<String> problems = new LinkedHashSet<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanClass(beanName);
            if (type == null || !AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
                continue;
            }
            ReflectionUtils.doWithMethods(type, method -> {
                LockOperation operation = operations.find(method, type);
                if (operation != null && checked.add(operation)) {
                    problems.addAll(operation.problems());
                    problems.addAll(missingBeans(operation));
                }
            }, method -> !method.isBridge() && !method.isSynthetic());
        }
        if (!checked.isEmpty() && beanFactory.getBeanNamesForType(LockRegistry.class, true, false).length == 0) {
            problems.add("@DistributedLock is used (e.g. on " + checked.iterator().next().description() + "), but "
                    + "there is no LockRegistry bean: add spring-boot-starter-data-redis (one RedisConnectionFactory, "
                    + "or mark one @Primary), set distlock.store=memory for tests, or define a LockRegistry bean");
        }
        problems.addAll(countedClaimsMissing(checked));
        if (!problems.isEmpty()) {
            throw new InvalidDistributedLockException(List.copyOf(problems));
        }
    }

    /**
     * A method with {@code permits} or a read or write {@code mode} needs counted claims (semaphores, read-write
     * locks), which not every store offers (Redlock does not): asked of the registry once, without a call to the store.
     */
    private List<String> countedClaimsMissing(Set<LockOperation> checked) {
        LockOperation limited = checked.stream().filter(LockOperation::counted).findFirst().orElse(null);
        LockRegistry registry = limited == null ? null : beanFactory.getBeanProvider(LockRegistry.class).getIfUnique();
        if (registry == null) {
            return List.of();
        }
        try {
            registry.semaphore("distlock-startup-check", 1);
            return List.of();
        } catch (UnsupportedOperationException unsupported) {
            return List.of("@DistributedLock on " + limited.description() + ": " + limited.countedAttribute()
                    + " needs semaphores and read-write locks, which this lock registry does not offer ("
                    + unsupported.getMessage() + "); allowed: a registry on Redis (one server, Sentinel or Cluster) "
                    + "or in memory, or neither permits nor a read or write mode");
        }
    }

    /** The class behind a bean (the target of a proxy), or {@code null} when it cannot be told. */
    private Class<?> beanClass(String beanName) {
        if (ScopedProxyUtils.isScopedTarget(beanName)) {
            return null;
        }
        try {
            Class<?> type = AutoProxyUtils.determineTargetClass(beanFactory, beanName);
            return type != null ? type : beanFactory.getType(beanName, false);
        } catch (RuntimeException unknown) {
            // a bean whose type cannot be determined cannot be checked, and is not ours to fail
            return null;
        }
    }

    private Set<String> missingBeans(LockOperation operation) {
        Set<String> missing = new LinkedHashSet<>();
        for (String bean : operation.beanReferences()) {
            if (!beanFactory.containsBean(bean)) {
                missing.add("@DistributedLock on " + operation.description() + ": name '" + operation.name()
                        + "' refers to @" + bean + ", but there is no bean of that name; allowed: the name of a "
                        + "bean in this application context");
            }
        }
        return missing;
    }
}
