package dev.distlock.aspectj;

import dev.distlock.aop.LockAspectSupport;
import java.lang.reflect.Method;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Pointcut;
import org.aspectj.lang.reflect.MethodSignature;
import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

/**
 * Applies {@link dev.distlock.annotation.DistributedLock @DistributedLock} by AspectJ weaving: every execution of an
 * annotated method is locked, whoever calls it, including the bean itself, and whatever its visibility (private,
 * package-private, final and static methods too). The locking is the proxies' own: the aspect hands each call to the
 * {@link LockAspectSupport} the application's {@link DistlockAspectJAutoConfiguration} configures it with, so names,
 * failure policies, reactive and {@code CompletionStage} results, meters, observations and the transaction guard are
 * the same.
 *
 * <p>Woven are the methods annotated directly (or with an annotation meta-annotated with it) and the public methods
 * of a class annotated with it. As in Spring's AspectJ caching, an annotation on an interface is not inherited by
 * the implementing class's methods: annotate the class. A Kotlin {@code suspend} function is locked for its whole
 * run, suspensions included, as behind a proxy (with kotlinx-coroutines-reactor on the classpath): see
 * {@link SuspendingExecutions}.
 *
 * <p>Weave it at compile time (the AspectJ compiler with this jar as an aspect library) or at load time (the
 * {@code aspectjweaver} agent reads this jar's {@code META-INF/aop.xml}; the application's own {@code aop.xml} says
 * which classes to weave). The startup fails naming any annotated method of a bean that was not woven. Until an
 * application context has configured the aspect, a locked call fails with
 * {@link IllegalStateException} rather than run without its lock. One aspect serves the JVM (the class loader): the
 * application context started last configures it.
 *
 * <p>The AspectJ compiler gives the class the static {@code aspectOf()} that returns the one instance; from Java
 * code compiled by javac, reach it with {@code Aspects.aspectOf(DistributedLockAspect.class)}.
 *
 * @since 0.1.0
 */
@Aspect
public class DistributedLockAspect {

    private static final boolean COROUTINES_REACTOR_PRESENT =
            ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", DistributedLockAspect.class.getClassLoader());

    private volatile LockAspectSupport support;

    /** Execution of a method annotated with {@code @DistributedLock}, or with an annotation that is. */
    @Pointcut("execution(@dev.distlock.annotation.DistributedLock * *(..))"
            + " || execution(@(@dev.distlock.annotation.DistributedLock *) * *(..))")
    void annotatedMethod() {
    }

    /** Execution of a public method of a class annotated with {@code @DistributedLock}. */
    @Pointcut("execution(public * ((@dev.distlock.annotation.DistributedLock *)+).*(..))"
            + " && within(@dev.distlock.annotation.DistributedLock *)")
    void publicMethodOfAnnotatedClass() {
    }

    /**
     * Runs the method's execution under its lock (the operation source decides, as for proxies: a class-level
     * annotation does not lock {@code equals}, {@code hashCode} or {@code toString}; synthetic methods are not
     * locked, as the proxies' startup checks skip them).
     *
     * @param execution the method's execution, proceeded with once per call (once per subscription for
     *        {@code Mono}/{@code Flux}; a suspend function's body with a coroutine of its own, and at once when the
     *        body resumes after a suspension)
     * @return what the lock support returns for the call ({@code COROUTINE_SUSPENDED} while a suspend function's
     *         call waits)
     * @throws Throwable what the method threw, or why the lock was not taken
     */
    @Around("annotatedMethod() || publicMethodOfAnnotatedClass()")
    public Object lock(ProceedingJoinPoint execution) throws Throwable {
        Method method = ((MethodSignature) execution.getSignature()).getMethod();
        if (method.isSynthetic()) {
            // a compiler's helper that carries the annotations of the method it serves, as the static $suspendImpl
            // of a Kotlin open suspend function does: the method itself is locked
            return execution.proceed();
        }
        Object target = execution.getTarget();
        Class<?> targetClass = target != null ? target.getClass() : method.getDeclaringClass();
        if (COROUTINES_REACTOR_PRESENT && KotlinDetector.isSuspendingFunction(method)) {
            Object[] args = execution.getArgs();
            if (SuspendingExecutions.resumes(method, args)) {
                return execution.proceed(); // the body goes on after a suspension, under the call's hold
            }
            return SuspendingExecutions.lock(support(method), method, targetClass, target, args, execution);
        }
        return support(method).invoke(method, targetClass, target, execution.getArgs(), execution::proceed);
    }

    /** Makes the aspect lock with {@code support}, replacing what configured it before. */
    public void configure(LockAspectSupport support) {
        this.support = support;
    }

    /** Forgets {@code support} if the aspect still locks with it: its application context is closing. */
    public void release(LockAspectSupport support) {
        if (this.support == support) {
            this.support = null;
        }
    }

    private LockAspectSupport support(Method method) {
        LockAspectSupport current = support;
        if (current == null) {
            throw new IllegalStateException("@DistributedLock on " + method.getDeclaringClass().getName() + "."
                    + method.getName() + " is woven by AspectJ, but no application context has configured distlock's "
                    + "aspect (distlock.advice-mode=aspectj, with lock-aspectj on the classpath), or the call came "
                    + "before it did or after the context closed: the call is refused rather than run without its lock");
        }
        return current;
    }
}
