package dev.distlock.aop;

import java.lang.reflect.Method;

/**
 * The {@code #root} object of a name expression: {@code #root.method}, {@code #root.methodName},
 * {@code #root.args}, {@code #root.target}, {@code #root.targetClass}.
 */
final class LockExpressionRoot {

    private final Method method;
    private final Object[] args;
    private final Object target;
    private final Class<?> targetClass;

    LockExpressionRoot(Method method, Object[] args, Object target, Class<?> targetClass) {
        this.method = method;
        this.args = args;
        this.target = target;
        this.targetClass = targetClass;
    }

    public Method getMethod() {
        return method;
    }

    public String getMethodName() {
        return method.getName();
    }

    public Object[] getArgs() {
        return args;
    }

    public Object getTarget() {
        return target;
    }

    public Class<?> getTargetClass() {
        return targetClass;
    }
}
