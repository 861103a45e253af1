package dev.distlock.autoconfigure;

import dev.distlock.aop.LockDefaults;
import dev.distlock.core.Lease;
import dev.distlock.core.LockListener;
import dev.distlock.core.support.LockRegistryBuilder;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Hands the {@code distlock.*} values to the objects that use them and own their rules (the registry builders,
 * {@link LockDefaults}); when one refuses a value, the startup fails naming the property, which the failure report
 * ({@link dev.distlock.autoconfigure.diagnostics.InvalidDistlockPropertyFailureAnalyzer}) shows with what to change.
 * Each rule is written once, by its owner; the two that tie properties together are here.
 */
final class DistlockSettings {

    private DistlockSettings() {
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

    /**
     * Applies the settings every registry has: lease, poll interval, the application's listeners and its name
     * (shown to operators asking who holds a lock). The registry's default lease is the one its renewed holds get; with {@code distlock.renew-lease=false} {@code distlock.lease} is a fixed lease for annotated
     * methods, and the registry keeps its default unless the value also works renewed.
     */
    static <B extends LockRegistryBuilder<B>> B withSharedSettings(B builder, DistlockProperties properties,
            ObjectProvider<LockListener> listeners, Environment environment) {
        builder.applicationName(environment.getProperty("spring.application.name"));
        if (properties.isRenewLease() || Lease.problem(properties.getLease(), true) == null) {
            apply("lease", properties.getLease(), () -> builder.defaultLease(properties.getLease()));
        }
        apply("max-poll-interval", properties.getMaxPollInterval(),
                () -> builder.maxPollInterval(properties.getMaxPollInterval()));
        listeners.orderedStream().forEach(builder::listener);
        return builder;
    }

    /**
     * The defaults of annotated methods from {@code distlock.wait-timeout}, {@code lease} and {@code renew-lease},
     * whose rules {@link LockDefaults} owns: the wait is handed over first with a lease that works, so that a refusal
     * names the property at fault.
     */
    static LockDefaults annotationDefaults(DistlockProperties properties) {
        Duration wait = properties.getWaitTimeout();
        apply("wait-timeout", wait, () -> new LockDefaults(wait, Duration.ofSeconds(30), true));
        return apply("lease", properties.getLease(),
                () -> new LockDefaults(wait, properties.getLease(), properties.isRenewLease()));
    }

    /**
     * Hands {@code distlock.fence-retention} to a builder, which owns its range. At least {@code distlock.lease} is
     * this starter's rule, since it ties the two properties: the last fencing token outlives every hold.
     */
    static void withFenceRetention(Consumer<Duration> builder, DistlockProperties properties) {
        Duration retention = properties.getFenceRetention();
        if (retention != null && properties.getLease() != null && retention.compareTo(properties.getLease()) < 0) {
            throw invalid("fence-retention", retention, "must be at least distlock.lease ("
                    + properties.getLease() + "), so fencing tokens outlive every hold");
        }
        apply("fence-retention", retention, () -> {
            builder.accept(retention);
            return retention;
        });
    }
}
