package dev.distlock.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.aop.LockCallObserver;
import dev.distlock.aop.LockCallObserver.Acquiring;
import dev.distlock.aop.LockCallObserver.Holding;
import dev.distlock.core.HoldKind;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

class ObservationLockCallObserverTests {

    private final TestObservationRegistry registry = TestObservationRegistry.create();
    private final ObservationLockCallObserver observer = new ObservationLockCallObserver(registry, null, null);
    private final Method method = method();

    @Test
    void anAcquiredCallMakesAnAcquireAndAHoldObservationTaggedByLabelAndOutcome() throws Throwable {
        Acquiring acquiring = observer.acquiring("Orders.pay", "order:42", method);
        Holding holding = acquiring.acquired(7);
        holding.ended(LockCallObserver.HoldEnd.RELEASED, null);

        assertThat(registry).hasNumberOfObservationsEqualTo(2)
                .hasObservationWithNameEqualTo("distlock.acquisition").that()
                .hasContextualNameEqualTo("acquire Orders.pay")
                .hasLowCardinalityKeyValue("lock", "Orders.pay").hasLowCardinalityKeyValue("outcome", "acquired")
                .hasHighCardinalityKeyValue("distlock.key", "order:42")
                .hasHighCardinalityKeyValue("distlock.fencing.token", "7")
                .doesNotHaveLowCardinalityKeyValueWithKey("distlock.key").hasBeenStarted().hasBeenStopped();
        assertThat(registry).hasObservationWithNameEqualTo("distlock.hold").that()
                .hasContextualNameEqualTo("hold Orders.pay")
                .hasLowCardinalityKeyValue("lock", "Orders.pay").hasLowCardinalityKeyValue("outcome", "released")
                .hasHighCardinalityKeyValue("distlock.fencing.token", "7")
                .doesNotHaveLowCardinalityKeyValueWithKey("distlock.fencing.token").hasBeenStopped();
    }

    @Test
    void bothObservationsCarryTheKindOfHoldTheCallDeclares() {
        observer.acquiring("prices", "prices", method, HoldKind.READ).acquired(3)
                .ended(LockCallObserver.HoldEnd.RELEASED, null);

        assertThat(registry).hasObservationWithNameEqualTo("distlock.acquisition").that()
                .hasLowCardinalityKeyValue("lock", "prices").hasLowCardinalityKeyValue("kind", "read");
        assertThat(registry).hasObservationWithNameEqualTo("distlock.hold").that()
                .hasLowCardinalityKeyValue("lock", "prices").hasLowCardinalityKeyValue("kind", "read");
    }

    @Test
    void aCallWhoseKindIsNotToldIsObservedAsALock() {
        observer.acquiring("Orders.pay", "order:42", method).acquired(4).ended(LockCallObserver.HoldEnd.RELEASED, null);

        assertThat(registry).hasObservationWithNameEqualTo("distlock.hold").that()
                .hasLowCardinalityKeyValue("kind", "lock");
    }

    @Test
    void aSkippedCallIsOneAcquireObservationWithOutcomeSkippedAndNoToken() {
        observer.acquiring("nightly", "nightly", method).missed(LockCallObserver.AcquireOutcome.SKIPPED, null);

        assertThat(registry).hasNumberOfObservationsEqualTo(1)
                .hasObservationWithNameEqualTo("distlock.acquisition").that()
                .hasLowCardinalityKeyValue("outcome", "skipped")
                .doesNotHaveHighCardinalityKeyValueWithKey("distlock.fencing.token").hasBeenStopped();
    }

    @Test
    void theMethodRunsInsideTheHoldSoItsObservationsAreChildren() throws Throwable {
        Holding holding = observer.acquiring("Orders.pay", "order:1", method).acquired(3);
        IllegalStateException failure = new IllegalStateException("declined");

        Object parentName = holding.around(() -> registry.getCurrentObservation().getContext().getName());
        holding.ended(LockCallObserver.HoldEnd.LOST, failure);

        assertThat(parentName).isEqualTo("distlock.hold");
        assertThat(registry).hasObservationWithNameEqualTo("distlock.hold").that()
                .hasLowCardinalityKeyValue("outcome", "lost").hasError(failure);
    }

    @Test
    void aConventionBeanReplacesTheDefaultOne() {
        LockHoldObservationConvention custom = new DefaultLockHoldObservationConvention() {

            @Override
            public String getName() {
                return "jobs.lock.hold";
            }

            @Override
            public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
                return KeyValues.empty();
            }
        };
        new ObservationLockCallObserver(registry, null, custom).acquiring("job", "job:1", method).acquired(1)
                .ended(LockCallObserver.HoldEnd.RELEASED, null);

        assertThat(registry).hasObservationWithNameEqualTo("jobs.lock.hold").that()
                .doesNotHaveHighCardinalityKeyValueWithKey("distlock.key");
        assertThat(custom.supportsContext(new Observation.Context())).isFalse();
    }

    private static Method method() {
        try {
            return ObservationLockCallObserverTests.class.getDeclaredMethod("method");
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
