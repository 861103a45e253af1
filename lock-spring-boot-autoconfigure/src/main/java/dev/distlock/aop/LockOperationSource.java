package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the {@link DistributedLock} that applies to a method called on a target class and keeps the
 * resulting {@link LockOperation} per (method, target class), including "none". The annotation is looked
 * up on the most specific method, the methods it overrides or implements, then (for public methods other
 * than {@code equals}/{@code hashCode}/{@code toString}) on the class, its superclasses and interfaces;
 * composed annotations count.
 *
 * <p>One instance serves the advisor's pointcut, the interceptor and the startup validator, so that what the
 * validator accepts is exactly what runs; the starter registers it as an infrastructure bean, as Spring's caching
 * does its {@code CacheOperationSource}.
 *
 * @since 0.1.0
 */
public final class LockOperationSource {

    private final Map<AnnotatedElementKey, Optional<LockOperation>> operations = new ConcurrentHashMap<>(256);
    private final LockKeyEvaluator keys;
    private final LockOperationFactory factory;

    /**
     * @param defaults wait, lease and renewal for annotations that leave them empty
     * @param beanFactory resolves {@code @bean} references in names and {@code ${...}} placeholders in
     *        {@code timeout}/{@code lease}
     */
    public LockOperationSource(LockDefaults defaults, BeanFactory beanFactory) {
        this(defaults, beanFactory, AdviceMode.PROXY);
    }

    /**
     * Operations for calls that reach the lock the way {@code mode} says: through Spring's proxies, whose calls
     * cannot reach private, static or final methods (the declaration is refused), or through AspectJ weaving,
     * which reaches every method.
     *
     * @param defaults wait, lease and renewal for annotations that leave them empty
     * @param beanFactory resolves {@code @bean} references in names and {@code ${...}} placeholders in
     *        {@code timeout}/{@code lease}
     * @param mode how calls of annotated methods reach the lock
     */
    public LockOperationSource(LockDefaults defaults, BeanFactory beanFactory, AdviceMode mode) {
        this(new LockKeyEvaluator(beanFactory), defaults, beanFactory, mode);
    }

    LockOperationSource(LockKeyEvaluator keys, LockDefaults defaults, BeanFactory beanFactory) {
        this(keys, defaults, beanFactory, AdviceMode.PROXY);
    }

    private LockOperationSource(LockKeyEvaluator keys, LockDefaults defaults, BeanFactory beanFactory,
            AdviceMode mode) {
        this.keys = keys;
        this.factory = new LockOperationFactory(keys, defaults, beanFactory, mode);
    }

    /** The evaluator of the operations' names, for the calls. */
    LockKeyEvaluator keys() {
        return keys;
    }

    /** The operation of {@code method} called on {@code targetClass}, or {@code null} if it is not locked. */
    LockOperation find(Method method, Class<?> targetClass) {
        AnnotatedElementKey key = new AnnotatedElementKey(method, targetClass);
        Optional<LockOperation> operation = operations.get(key);
        if (operation == null) {
            operation = operations.computeIfAbsent(key, ignored -> Optional.ofNullable(compute(method, targetClass)));
        }
        return operation.orElse(null);
    }

    /** How many (method, target class) pairs have been looked at: the operation cache's size. */
    int size() {
        return operations.size();
    }

    private LockOperation compute(Method method, Class<?> targetClass) {
        Class<?> userClass = ClassUtils.getUserClass(targetClass != null ? targetClass : method.getDeclaringClass());
        if (Modifier.isStatic(method.getModifiers())) {
            // never proxied (an annotation on it is a mistake the validator reports), but woven by AspectJ
            DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
            return annotation != null ? factory.create(annotation, method, userClass) : null;
        }
        Method specific = AopUtils.getMostSpecificMethod(method, userClass);
        DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
        if (annotation == null && specific != method) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
        }
        if (annotation == null && appliesToClassLevel(specific)) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(userClass, DistributedLock.class);
            if (annotation == null) {
                annotation = AnnotatedElementUtils.findMergedAnnotation(method.getDeclaringClass(), DistributedLock.class);
            }
        }
        return annotation != null ? factory.create(annotation, specific, userClass) : null;
    }

    /** A class-level annotation locks the public methods, not the {@code Object} ones. */
    private static boolean appliesToClassLevel(Method method) {
        return Modifier.isPublic(method.getModifiers()) && !ReflectionUtils.isObjectMethod(method);
    }
}
