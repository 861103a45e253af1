package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock;
import java.lang.reflect.Method;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Matches the methods for which the operation source finds a {@link DistributedLock}: on the method, on
 * what it overrides or implements, or on the class or its supertypes. Sharing the source means the
 * pointcut, the interceptor and the validator always agree.
 */
final class LockOperationPointcut extends StaticMethodMatcherPointcut {

    private final LockOperationSource operations;

    LockOperationPointcut(LockOperationSource operations) {
        this.operations = operations;
        // skips java.* and other classes that cannot carry the annotation without looking at their methods
        setClassFilter(type -> AnnotationUtils.isCandidateClass(type, DistributedLock.class));
    }

    @Override
    public boolean matches(Method method, Class<?> targetClass) {
        return operations.find(method, targetClass) != null;
    }
}
