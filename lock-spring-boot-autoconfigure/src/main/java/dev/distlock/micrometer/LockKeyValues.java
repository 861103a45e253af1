package dev.distlock.micrometer;

import dev.distlock.micrometer.DistlockObservationDocumentation.HighCardinalityKeyNames;
import dev.distlock.micrometer.DistlockObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValues;

/** The key values both default conventions give: the label and outcome low, the key and token high. */
final class LockKeyValues {

    private LockKeyValues() {
    }

    static KeyValues low(LockObservationContext context) {
        return KeyValues.of(LowCardinalityKeyNames.LOCK.withValue(context.getLabel()),
                LowCardinalityKeyNames.OUTCOME.withValue(context.getOutcome()));
    }

    static KeyValues high(LockObservationContext context) {
        KeyValues key = KeyValues.of(HighCardinalityKeyNames.KEY.withValue(context.getKey()));
        return context.getFencingToken() > 0
                ? key.and(HighCardinalityKeyNames.FENCING_TOKEN.withValue(Long.toString(context.getFencingToken())))
                : key;
    }
}
