package dev.distlock.actuate;

import dev.distlock.actuate.DistlocksEndpoint.Holder;
import dev.distlock.actuate.ForceReleasingDistlocksEndpoint.ForcedReleaseDescriptor;
import dev.distlock.actuate.ForceReleasingDistlocksEndpoint.Outcome;
import dev.distlock.core.LockHolder;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's forced release of one hold ({@link LockRegistry#forceRelease}) in every registry bean, told to the
 * log and to a counter: what {@code DELETE /actuator/distlocks/{name}} does. Apart from the endpoint so that the
 * endpoint only maps the call.
 */
final class ForcedReleases {

    /** The endpoint's category: where an operator looks for what the endpoint did. */
    private static final Logger log = LoggerFactory.getLogger(ForceReleasingDistlocksEndpoint.class);

    private final Map<String, LockRegistry> registries;
    private final Consumer<String> counted;

    ForcedReleases(Map<String, LockRegistry> registries, Consumer<String> counted) {
        this.registries = new TreeMap<>(registries);
        this.counted = Objects.requireNonNull(counted, "counted");
    }

    /** Ends the hold of {@code name} with {@code fencingToken} in each registry whose backend has it. */
    List<ForcedReleaseDescriptor> release(String name, long fencingToken, Principal caller) {
        List<ForcedReleaseDescriptor> answers = new ArrayList<>();
        registries.forEach((beanName, registry) -> answers.add(release(beanName, registry, name, fencingToken,
                caller == null ? "an anonymous caller" : "'" + caller.getName() + "'")));
        return answers;
    }

    private ForcedReleaseDescriptor release(String beanName, LockRegistry registry, String name, long fencingToken,
            String caller) {
        String key = registry instanceof RedisLockRegistry redis ? redis.keyOf(name) : name;
        // who holds it, read first: once released, the hold's holder can no longer be read
        LockInfo before = registry.inspect(name);
        boolean released;
        try {
            released = registry.forceRelease(name, fencingToken);
        } catch (UnsupportedOperationException unsupported) {
            log.warn("Forced release of lock '{}' with fencing token {} asked by {} was refused: registry '{}' "
                    + "cannot ({})", name, fencingToken, caller, beanName, unsupported.getMessage());
            return new ForcedReleaseDescriptor(beanName, name, key, fencingToken, Outcome.UNSUPPORTED, null, 0);
        }
        if (released) {
            LockHolder holder = before.fencingToken() == fencingToken ? before.holder() : null;
            log.warn("Lock '{}' (key {}, registry '{}') was force-released by {}: the hold with fencing token {} "
                    + "of {} ended; its owner finds it lost at its next renewal, and later holders get larger "
                    + "fencing tokens", name, key, beanName, caller, fencingToken, describe(holder));
            counted.accept(beanName);
            return new ForcedReleaseDescriptor(beanName, name, key, fencingToken, Outcome.RELEASED,
                    Holder.of(holder), fencingToken);
        }
        LockInfo now = registry.inspect(name);
        Outcome outcome = now.held() ? Outcome.OTHER_HOLDER : Outcome.NOT_HELD;
        log.info("Forced release of lock '{}' (registry '{}') with fencing token {} asked by {} released nothing: {}",
                name, beanName, fencingToken, caller, now.held() ? "it is held with fencing token "
                        + now.fencingToken() + " by " + describe(now.holder()) : "it is not held");
        return new ForcedReleaseDescriptor(beanName, name, key, fencingToken, outcome, Holder.of(now.holder()),
                now.fencingToken());
    }

    private static String describe(LockHolder holder) {
        if (holder == null) {
            return "an unknown holder";
        }
        return "application " + holder.application() + " on " + holder.host() + " (pid " + holder.pid()
                + ", registry " + holder.instance() + ")";
    }
}
