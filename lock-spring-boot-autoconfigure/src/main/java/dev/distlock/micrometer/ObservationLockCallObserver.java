package dev.distlock.micrometer;

import dev.distlock.aop.LockCallObserver;
import dev.distlock.aop.MethodInvoker;
import dev.distlock.core.HoldKind;
import dev.distlock.core.WaitEnd;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * Makes Micrometer {@link Observation}s of {@code @DistributedLock} calls (see
 * {@link DistlockObservationDocumentation}): one for the acquire, one for the hold, each the current
 * observation of the calling thread while it runs, so that spans of the method become children of the hold.
 *
 * @since 0.1.0
 */
public final class ObservationLockCallObserver implements LockCallObserver {

    private final ObservationRegistry registry;
    private final LockAcquireObservationConvention acquireConvention;
    private final LockHoldObservationConvention holdConvention;

    /**
     * @param acquireConvention replaces the default convention of the acquire, or {@code null}
     * @param holdConvention replaces the default convention of the hold, or {@code null}
     */
    public ObservationLockCallObserver(ObservationRegistry registry, LockAcquireObservationConvention acquireConvention,
            LockHoldObservationConvention holdConvention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.acquireConvention = acquireConvention;
        this.holdConvention = holdConvention;
    }

    @Override
    public Acquiring acquiring(String label, String key, Method method) {
        return acquiring(label, key, method, HoldKind.LOCK);
    }

    @Override
    public Acquiring acquiring(String label, String key, Method method, HoldKind kind) {
        if (registry.isNoop()) {
            return Acquiring.NONE;
        }
        LockObservationContext context = new LockObservationContext(label, key, method, false, 0, kind);
        Observation acquire = DistlockObservationDocumentation.ACQUIRE.observation(acquireConvention,
                DefaultLockAcquireObservationConvention.INSTANCE, () -> context, registry).start();
        return new ObservedAcquire(acquire, context);
    }

    private final class ObservedAcquire implements Acquiring {

        private final Observation observation;
        private final LockObservationContext context;

        ObservedAcquire(Observation observation, LockObservationContext context) {
            this.observation = observation;
            this.context = context;
        }

        @Override
        public <T, E extends Throwable> T around(AcquireAction<T, E> acquire) throws E {
            try (Observation.Scope scope = observation.openScope()) {
                return acquire.run();
            }
        }

        @Override
        public Holding acquired(long fencingToken) {
            return acquired(fencingToken, null);
        }

        @Override
        public Holding acquired(long fencingToken, WaitEnd waitEnd) {
            if (waitEnd != null) {
                context.setWaitEnd(waitEnd.tagValue());
            }
            context.setOutcome(AcquireOutcome.ACQUIRED.tagValue());
            context.setFencingToken(fencingToken);
            observation.stop();
            LockObservationContext held = new LockObservationContext(context.getLabel(), context.getKey(),
                    context.getMethod(), true, fencingToken, context.getKind());
            return new ObservedHold(DistlockObservationDocumentation.HOLD.observation(holdConvention,
                    DefaultLockHoldObservationConvention.INSTANCE, () -> held, registry).start(), held);
        }

        @Override
        public void missed(AcquireOutcome outcome, Throwable error) {
            context.setOutcome(outcome.tagValue());
            if (error != null) {
                observation.error(error);
            }
            observation.stop();
        }
    }

    private static final class ObservedHold implements Holding {

        private final Observation observation;
        private final LockObservationContext context;

        ObservedHold(Observation observation, LockObservationContext context) {
            this.observation = observation;
            this.context = context;
        }

        @Override
        public Object around(MethodInvoker method) throws Throwable {
            try (Observation.Scope scope = observation.openScope()) {
                return method.invoke();
            }
        }

        @Override
        public void ended(HoldEnd end, Throwable methodFailure) {
            context.setOutcome(end.tagValue());
            if (methodFailure != null) {
                observation.error(methodFailure);
            }
            observation.stop();
        }
    }
}
