package dev.distlock.autoconfigure.diagnostics;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Turns a {@code distlock.*} property whose value cannot work into Spring Boot's "APPLICATION FAILED TO
 * START" report, naming the property, its value, where it was set and what is allowed. Runs before Spring
 * Boot's generic analyzer of the same exception; other properties are left to that one.
 *
 * @since 0.1.0
 */
public final class InvalidDistlockPropertyFailureAnalyzer
        extends AbstractFailureAnalyzer<InvalidConfigurationPropertyValueException> implements Ordered {

    private static final String PREFIX = "distlock.";

    private final Environment environment;

    /** Spring Boot creates it with the environment, where it looks up where a property was set. */
    public InvalidDistlockPropertyFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigurationPropertyValueException cause) {
        String name = cause.getName();
        if (name == null || !name.startsWith(PREFIX)) {
            return null;
        }
        ConfigurationProperty property = find(name);
        // the value as written (5s), rather than as bound (PT5S), and where it was written
        Object value = property != null ? property.getValue() : cause.getValue();
        Origin origin = property != null ? property.getOrigin() : null;
        String description = "Invalid value '" + value + "' for the distlock property '" + name + "'"
                + (origin != null ? " (from " + origin + ")" : "") + ": it " + cause.getReason() + ".";
        String action = "Change " + name + " (it " + cause.getReason() + "), or remove it to use its default. "
                + "Every distlock.* property and its default is listed in distlock's docs/properties.md and in "
                + "your IDE's completion.";
        return new FailureAnalysis(description, action, cause);
    }

    /** The property as the environment has it, if it can tell. */
    private ConfigurationProperty find(String name) {
        if (environment == null) {
            return null;
        }
        ConfigurationPropertyName property = ConfigurationPropertyName.of(name);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty value = source.getConfigurationProperty(property);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
