package dev.distlock.aspectj;

import dev.distlock.annotation.DistributedLock;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.reflect.MethodSignature;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ReflectionUtils;

/**
 * Fails the startup when a bean's {@link DistributedLock @DistributedLock} method was not woven (the class was
 * compiled by javac and not woven at load time, or loaded before the weaver), since in AspectJ mode nothing else
 * would lock its calls. A woven method's class keeps the static join-point descriptions the AspectJ weaver adds
 * ({@code ajc$tjp_*}); a method without one is not advised by any aspect.
 */
final class WovenMethods implements SmartInitializingSingleton {

    private static final String JOIN_POINT_FIELD = "ajc$tjp_";

    private final ConfigurableListableBeanFactory beanFactory;

    WovenMethods(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Set<Class<?>> checked = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<String> unwoven = new LinkedHashSet<>();
        Set<String> inherited = new LinkedHashSet<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = AutoProxyUtils.determineTargetClass(beanFactory, beanName);
            if (type != null && checked.add(type) && AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
                Set<Method> woven = advisedExecutions(type);
                ReflectionUtils.doWithLocalMethods(type, method -> {
                    if (AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class) && !method.isSynthetic()
                            && !Modifier.isAbstract(method.getModifiers()) && !woven.contains(method)) {
                        (isAnnotatedItself(method) ? unwoven : inherited).add(type.getName() + "." + method.getName());
                    }
                });
            }
        }
        if (!inherited.isEmpty()) {
            throw new IllegalStateException("distlock.advice-mode=aspectj, but these methods are annotated with "
                    + "@DistributedLock only where they are declared on an interface or a superclass, which AspectJ "
                    + "does not inherit, so their calls would run without the lock: " + String.join(", ", inherited)
                    + ". Annotate the methods of the class itself (or the class), or set distlock.advice-mode=proxy");
        }
        if (!unwoven.isEmpty()) {
            throw new IllegalStateException("distlock.advice-mode=aspectj, but these @DistributedLock methods are not "
                    + "woven by AspectJ, so their calls would run without the lock: " + String.join(", ", unwoven)
                    + ". Compile their classes with the AspectJ compiler and dev.distlock:lock-aspectj as an aspect "
                    + "library, or weave them at load time (-javaagent:aspectjweaver.jar and a META-INF/aop.xml that "
                    + "includes them), or set distlock.advice-mode=proxy");
        }
    }

    /** Whether {@code method} itself carries the annotation (directly or as a meta-annotation), as AspectJ sees it. */
    private static boolean isAnnotatedItself(Method method) {
        return MergedAnnotations.from(method, SearchStrategy.DIRECT).isPresent(DistributedLock.class);
    }

    /** The methods of {@code type} whose executions some aspect advises. */
    private static Set<Method> advisedExecutions(Class<?> type) {
        Set<Method> advised = new LinkedHashSet<>();
        for (Field field : type.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().startsWith(JOIN_POINT_FIELD)
                    && JoinPoint.StaticPart.class.isAssignableFrom(field.getType())) {
                ReflectionUtils.makeAccessible(field);
                JoinPoint.StaticPart joinPoint = (JoinPoint.StaticPart) ReflectionUtils.getField(field, null);
                if (joinPoint != null && JoinPoint.METHOD_EXECUTION.equals(joinPoint.getKind())
                        && joinPoint.getSignature() instanceof MethodSignature signature) {
                    advised.add(signature.getMethod());
                }
            }
        }
        return advised;
    }
}
