package dev.distlock.aop;

import dev.distlock.core.WaitEnd;
import dev.distlock.core.HoldKind;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells several observers of the same calls, in order: each one's {@code around} runs inside the one before it, so
 * the first one's observation is the outermost.
 */
final class CompositeLockCallObserver implements LockCallObserver {

    private final List<LockCallObserver> observers;

    CompositeLockCallObserver(List<LockCallObserver> observers) {
        this.observers = observers;
    }

    @Override
    public Acquiring acquiring(String label, String key, Method method) {
        return acquiring(label, key, method, HoldKind.LOCK);
    }

    @Override
    public Acquiring acquiring(String label, String key, Method method, HoldKind kind) {
        List<Acquiring> acquiring = new ArrayList<>(observers.size());
        for (LockCallObserver observer : observers) {
            acquiring.add(observer.acquiring(label, key, method, kind));
        }
        return new AllAcquiring(acquiring);
    }

    private record AllAcquiring(List<Acquiring> each) implements Acquiring {

        @Override
        public <T, E extends Throwable> T around(AcquireAction<T, E> acquire) throws E {
            return around(0, acquire);
        }

        private <T, E extends Throwable> T around(int index, AcquireAction<T, E> acquire) throws E {
            return index == each.size() ? acquire.run() : each.get(index).around(() -> around(index + 1, acquire));
        }

        @Override
        public Holding acquired(long fencingToken) {
            return acquired(fencingToken, null);
        }

        @Override
        public Holding acquired(long fencingToken, WaitEnd waitEnd) {
            List<Holding> holding = new ArrayList<>(each.size());
            for (Acquiring acquiring : each) {
                holding.add(acquiring.acquired(fencingToken, waitEnd));
            }
            return new AllHolding(holding);
        }

        @Override
        public void missed(AcquireOutcome outcome, Throwable error) {
            each.forEach(acquiring -> acquiring.missed(outcome, error));
        }
    }

    private record AllHolding(List<Holding> each) implements Holding {

        @Override
        public Object around(MethodInvoker method) throws Throwable {
            return around(0, method);
        }

        private Object around(int index, MethodInvoker method) throws Throwable {
            return index == each.size() ? method.invoke() : each.get(index).around(() -> around(index + 1, method));
        }

        @Override
        public void ended(HoldEnd end, Throwable methodFailure) {
            each.forEach(holding -> holding.ended(end, methodFailure));
        }
    }
}
