package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Warns at startup, once per bean, about the {@link DistributedLock @DistributedLock} methods that the bean's proxy
 * does not intercept, whose calls therefore run without the lock: on a JDK dynamic proxy the methods that none of
 * its interfaces declares, on a class-based proxy the package-private methods it cannot override (declared in another
 * package, or defined by another class loader), and every annotated method of a bean that is not proxied at all.
 * Private, static and final methods are refused outright by {@link DistributedLockValidator}. Calls from the bean to
 * itself never pass through its proxy whatever the method: that is what the AspectJ mode is for.
 *
 * @since 0.1.0
 */
public final class ProxyBypassWarnings implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ProxyBypassWarnings.class);

    private final ConfigurableListableBeanFactory beanFactory;
    private final LockOperationSource operations;

    /**
     * @param beanFactory the factory whose singletons are looked at
     * @param operations the operations the advisor applies
     */
    public ProxyBypassWarnings(ConfigurableListableBeanFactory beanFactory, LockOperationSource operations) {
        this.beanFactory = beanFactory;
        this.operations = operations;
    }

    /** Logs one warning per bean with annotated methods its proxy does not intercept. */
    @Override
    public void afterSingletonsInstantiated() {
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            Object bean = beanFactory.containsSingleton(beanName) ? beanFactory.getSingleton(beanName) : null;
            if (bean == null) {
                continue;
            }
            Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
            if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLock.class)) {
                continue;
            }
            List<String> bypassed = bypassed(bean, targetClass);
            if (!bypassed.isEmpty()) {
                log.warn("Bean '{}' ({}): its proxy does not intercept these @DistributedLock methods, so their calls "
                        + "run WITHOUT the lock: {}. Make them public methods of an interface the bean implements, or "
                        + "public methods of the class with class-based proxies (spring.aop.proxy-target-class=true), "
                        + "or weave them with AspectJ (distlock.advice-mode=aspectj and dev.distlock:lock-aspectj), "
                        + "which also locks a bean's calls to itself", beanName, targetClass.getName(),
                        String.join("; ", bypassed));
            }
        }
    }

    private List<String> bypassed(Object bean, Class<?> targetClass) {
        List<String> bypassed = new ArrayList<>();
        ReflectionUtils.doWithMethods(targetClass, method -> {
            LockOperation operation = operations.find(method, targetClass);
            if (operation != null && operation.problems().isEmpty()) {
                String reason = reason(bean, targetClass, method);
                if (reason != null) {
                    bypassed.add(operation.description() + " (" + reason + ")");
                }
            }
        }, method -> !method.isBridge() && !method.isSynthetic());
        return bypassed;
    }

    /** Why the bean's proxy does not intercept {@code method}, or {@code null} when it does. */
    private static String reason(Object bean, Class<?> targetClass, Method method) {
        if (!AopUtils.isAopProxy(bean)) {
            return "the bean is not proxied";
        }
        if (AopUtils.isJdkDynamicProxy(bean)) {
            for (Class<?> face : bean.getClass().getInterfaces()) {
                if (ReflectionUtils.findMethod(face, method.getName(), method.getParameterTypes()) != null) {
                    return null;
                }
            }
            return (packagePrivate(method) ? "package-private, " : "") + "not declared by an interface of the bean's "
                    + "JDK dynamic proxy, which intercepts only those";
        }
        if (packagePrivate(method)) {
            if (!method.getDeclaringClass().getPackageName().equals(targetClass.getPackageName())) {
                return "package-private in another package than the bean's class, so its class-based proxy cannot "
                        + "override it";
            }
            if (bean.getClass().getClassLoader() != method.getDeclaringClass().getClassLoader()) {
                return "package-private, and the class-based proxy comes from another class loader";
            }
        }
        return null;
    }

    private static boolean packagePrivate(Method method) {
        return (method.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE)) == 0;
    }
}
