package dev.distlock.aop;

import dev.distlock.core.DistributedLockException;
import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.core.HoldKind;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.LockRegistry;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Runs one call of an annotated method under its lock, free of AOP types: computes the key, obtains the
 * lock with the operation's lease and label, and lets the operation's {@link ReturnHandler} acquire, invoke
 * and release.
 */
final class LockExecution {

    private final Supplier<LockRegistry> registry;
    private final LockKeyEvaluator keys;
    private final Supplier<LockCallObserver> observer;
    private final Supplier<Executor> methodExecutor;

    /**
     * @param registry asked on each call (the supplier caches), since advisors exist before the registry
     * @param observer likewise
     * @param methodExecutor likewise: where methods acquired for without blocking run ({@link MethodExecutors})
     */
    LockExecution(Supplier<LockRegistry> registry, LockKeyEvaluator keys, Supplier<LockCallObserver> observer,
            Supplier<Executor> methodExecutor) {
        this.registry = registry;
        this.keys = keys;
        this.observer = observer;
        this.methodExecutor = methodExecutor;
    }

    /**
     * @param target the object the method is called on, for {@code #root.target}
     * @throws IllegalStateException if the declaration is invalid (normally refused at startup)
     */
    Object execute(LockOperation operation, Object[] args, Object target, MethodInvoker invoker) throws Throwable {
        operation.requireValid();
        LockRegistry locks = registry.get();
        FencedLock lock;
        List<String> names;
        try {
            names = operation.literalKey() != null ? List.of(operation.literalKey())
                    : keys.evaluate(operation, args, target);
            lock = operation.counted() ? counted(locks, operation, names)
                    : names.size() == 1 ? locks.obtain(names.get(0), operation.lease(), operation.label())
                    : locks.obtainAll(names, operation.lease(), operation.label());
        } catch (DistributedLockException keyFailure) {
            return operation.returnHandler().failed(keyFailure);
        }
        return operation.returnHandler().execute(new LockCall(operation, locks, lock, names, invoker,
                observer.get(), methodExecutor));
    }

    /**
     * A handle on the counted claim of the name: one permit of its semaphore, or a side of its read-write lock; the
     * name must be one name.
     */
    private static FencedLock counted(LockRegistry locks, LockOperation operation, List<String> names) {
        if (names.size() != 1) {
            throw new InvalidLockNameException(names.toString(), "@DistributedLock on " + operation.description()
                    + " has " + operation.countedAttribute() + ", which holds one name, but its name gave "
                    + names.size() + " names; give one name");
        }
        String name = names.get(0);
        if (operation.kind() == HoldKind.PERMITS) {
            return locks.semaphore(name, operation.permits(), operation.lease(), operation.label()).asLock();
        }
        FencedReadWriteLock readWrite = locks.readWriteLock(name, operation.lease(), operation.label());
        return operation.kind() == HoldKind.READ ? readWrite.readLock() : readWrite.writeLock();
    }
}
