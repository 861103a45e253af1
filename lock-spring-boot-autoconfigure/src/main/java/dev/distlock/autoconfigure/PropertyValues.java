package dev.distlock.autoconfigure;

import java.util.function.Supplier;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Hands a {@code distlock.*} value to the object whose rule it must meet (a registry builder, say) and, when that
 * object refuses it, fails naming the property: each rule is written once, by its owner, and the startup failure
 * report ({@link dev.distlock.autoconfigure.diagnostics.InvalidDistlockPropertyFailureAnalyzer}) names what to change.
 */
final class PropertyValues {

    private PropertyValues() {
    }

    /**
     * Runs {@code owner}, which hands {@code value} on, and returns what it returned (a builder, say).
     *
     * @param property the property's name under {@code distlock.}, e.g. {@code max-poll-interval}
     * @throws InvalidConfigurationPropertyValueException naming the property, with the owner's reason, if refused
     */
    static <T> T apply(String property, Object value, Supplier<T> owner) {
        try {
            return owner.get();
        } catch (IllegalArgumentException | NullPointerException refused) {
            throw invalid(property, value, refused.getMessage());
        }
    }

    /** The failure for {@code distlock.<property>} set to {@code value}. */
    static InvalidConfigurationPropertyValueException invalid(String property, Object value, String reason) {
        return new InvalidConfigurationPropertyValueException(DistlockProperties.PREFIX + "." + property, value,
                reason);
    }
}
