package dev.distlock.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationConvention;

/**
 * What the default conventions of the acquire and the hold share: a fixed name, a contextual name
 * {@code "<verb> <label>"}, low-cardinality {@code lock} and {@code outcome}, high-cardinality
 * {@code distlock.key} and {@code distlock.fencing.token} (once there is one).
 */
abstract class LockObservationConventionSupport implements ObservationConvention<LockObservationContext> {

    private final String name;
    private final String verb;

    LockObservationConventionSupport(String name, String verb) {
        this.name = name;
        this.verb = verb;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getContextualName(LockObservationContext context) {
        return verb + " " + context.getLabel();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
        return KeyValues.of(DistlockObservationDocumentation.LowCardinalityKeyNames.LOCK.withValue(context.getLabel()),
                DistlockObservationDocumentation.LowCardinalityKeyNames.OUTCOME.withValue(context.getOutcome()),
                DistlockObservationDocumentation.LowCardinalityKeyNames.KIND.withValue(context.getKind().tag()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
        KeyValues key = KeyValues.of(DistlockObservationDocumentation.HighCardinalityKeyNames.KEY.withValue(
                context.getKey()));
        return context.getFencingToken() > 0 ? key.and(DistlockObservationDocumentation.HighCardinalityKeyNames
                .FENCING_TOKEN.withValue(Long.toString(context.getFencingToken()))) : key;
    }
}
