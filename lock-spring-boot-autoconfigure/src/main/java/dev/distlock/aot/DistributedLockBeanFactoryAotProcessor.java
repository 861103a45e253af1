package dev.distlock.aot;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.LockNameSyntax;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * At build time, registers reflection hints for what {@code @DistributedLock} name expressions may read:
 * the public methods (getters, record accessors) and fields of the parameter types of every annotated
 * method whose name is SpEL ({@code #order.id} calls {@code Order.getId()} reflectively). Literal names
 * need nothing. Registered in {@code META-INF/spring/aot.factories}.
 *
 * @since 0.1.0
 */
public final class DistributedLockBeanFactoryAotProcessor implements BeanFactoryInitializationAotProcessor {

    @Override
    public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        Set<Class<?>> argumentTypes = new LinkedHashSet<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(beanName, false);
            if (type != null) {
                collect(ClassUtils.getUserClass(type), argumentTypes);
            }
        }
        if (argumentTypes.isEmpty()) {
            return null;
        }
        return (context, code) -> argumentTypes.forEach(type -> context.getRuntimeHints().reflection()
                .registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS, MemberCategory.PUBLIC_FIELDS));
    }

    private static void collect(Class<?> beanClass, Set<Class<?>> argumentTypes) {
        DistributedLock onClass = AnnotatedElementUtils.findMergedAnnotation(beanClass, DistributedLock.class);
        ReflectionUtils.doWithMethods(beanClass, method -> {
            DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
            DistributedLock applying = annotation != null ? annotation : onClass;
            if (applying != null && LockNameSyntax.isExpression(applying)) {
                addParameterTypes(method, argumentTypes);
            }
        }, method -> !method.isBridge() && !method.isSynthetic() && method.getDeclaringClass() != Object.class);
    }

    private static void addParameterTypes(Method method, Set<Class<?>> argumentTypes) {
        for (Class<?> type : method.getParameterTypes()) {
            if (!type.isPrimitive() && !type.getName().startsWith("java.")) {
                argumentTypes.add(type);
            }
        }
    }
}
