package dev.distlock.actuate;

import dev.distlock.core.HeldLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code distlocks} endpoint: the locks this instance holds now, in every {@link LockRegistry} bean.
 *
 * <pre>{@code
 * {"locks": [{"registry": "lockRegistry", "name": "order:42", "key": "distlock:{order:42}",
 *             "label": "OrderService.pay", "fencingToken": 1718000000000001,
 *             "heldSince": "2026-01-01T12:00:00.123Z", "remainingLeaseMillis": 27450, "renewed": true}]}
 * }</pre>
 *
 * <p>Reading it costs one backend call per hold (the remaining lease), so it is meant for people looking
 * at an instance, not for polling by machines; metrics serve those.
 */
@Endpoint(id = "distlocks")
public class DistlocksEndpoint {

    private final Map<String, LockRegistry> registries;

    /**
     * Lists the holds of the given registries.
     *
     * @param registries the registries by bean name
     */
    public DistlocksEndpoint(Map<String, LockRegistry> registries) {
        this.registries = new TreeMap<>(registries);
    }

    /** The locks held now, by registry bean name, then lock name. */
    @ReadOperation
    public HeldLocksDescriptor locks() {
        List<HeldLockDescriptor> locks = new ArrayList<>();
        registries.forEach((beanName, registry) -> registry.heldLocks().stream()
                .sorted(Comparator.comparing(HeldLock::name))
                .map(held -> HeldLockDescriptor.of(beanName, keyOf(registry, held.name()), held))
                .forEach(locks::add));
        return new HeldLocksDescriptor(locks);
    }

    private static String keyOf(LockRegistry registry, String name) {
        return registry instanceof RedisLockRegistry redis ? redis.keyOf(name) : name;
    }

    /**
     * What the endpoint answers.
     *
     * @param locks the holds, by registry bean name, then lock name
     */
    public record HeldLocksDescriptor(List<HeldLockDescriptor> locks) implements OperationResponseBody {
    }

    /**
     * One hold. Times are written as text and numbers rather than {@code Instant}/{@code Duration} so the
     * JSON does not depend on how the application configured its JSON mapper.
     *
     * @param registry the bean name of the registry holding it
     * @param name the lock's name
     * @param key where the lock lives in the backend (the Redis key), or the name for other backends
     * @param label the label the lock was obtained with, or {@code null}
     * @param fencingToken the hold's fencing token
     * @param heldSince when it was acquired, ISO-8601 in UTC
     * @param remainingLeaseMillis the lease left as the backend sees it; 0 if the hold was found lost
     * @param renewed whether the watchdog renews the lease
     */
    public record HeldLockDescriptor(String registry, String name, String key, String label, long fencingToken,
            String heldSince, long remainingLeaseMillis, boolean renewed) {

        static HeldLockDescriptor of(String registry, String key, HeldLock held) {
            return new HeldLockDescriptor(registry, held.name(), key, held.label(), held.fencingToken(),
                    held.heldSince().toString(), held.remainingLease().toMillis(), held.renewed());
        }
    }
}
