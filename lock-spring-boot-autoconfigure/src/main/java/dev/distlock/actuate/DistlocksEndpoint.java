package dev.distlock.actuate;

import dev.distlock.core.HeldLock;
import dev.distlock.core.LockHolder;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.LockWaiter;
import dev.distlock.deployment.DeploymentReport;
import dev.distlock.deployment.DeploymentReports;
import dev.distlock.redis.RedisLockRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code distlocks} endpoint: the locks this instance holds now, in every {@link LockRegistry} bean
 * ({@code GET /actuator/distlocks}), and who holds one lock, whichever instance it is
 * ({@code GET /actuator/distlocks/{name}}).
 *
 * <pre>{@code
 * {"locks": [{"registry": "lockRegistry", "name": "order:42", "key": "distlock:{order:42}",
 *             "label": "OrderService.pay", "fencingToken": 1718000000000001,
 *             "heldSince": "2026-01-01T12:00:00.123Z", "remainingLeaseMillis": 27450, "renewed": true}],
 *  "deployments": [{"registry": "lockRegistry", "backend": "redis", "servers": ["localhost:6379"],
 *             "version": "7.0.15", "topology": "standalone", "replicas": 0, "acknowledgement": "none (no replica)",
 *             "persistence": "none", "scripting": "functions (FCALL; scripts by EVALSHA if refused)",
 *             "evictionPolicy": "noeviction", "cannotPromise": ["no persistence: ...", "..."],
 *             "unreadable": []}]}
 * }</pre>
 *
 * <p>Reading it costs one backend call per hold (the remaining lease), so it is meant for people looking
 * at an instance, not for polling by machines; metrics serve those.
 */
@Endpoint(id = "distlocks")
public class DistlocksEndpoint {

    private final Map<String, LockRegistry> registries;
    private final DeploymentReports deployments;

    /**
     * Lists the holds of the given registries.
     *
     * @param registries the registries by bean name
     */
    public DistlocksEndpoint(Map<String, LockRegistry> registries) {
        this(registries, null);
    }

    /**
     * Lists the holds of the given registries, and what each runs on.
     *
     * @param registries the registries by bean name
     * @param deployments their deployment reports, or {@code null} for none
     */
    public DistlocksEndpoint(Map<String, LockRegistry> registries, DeploymentReports deployments) {
        this.registries = new TreeMap<>(registries);
        this.deployments = deployments;
    }

    /** The locks held now, by registry bean name, then lock name, and what each registry runs on. */
    @ReadOperation
    public HeldLocksDescriptor locks() {
        List<HeldLockDescriptor> locks = new ArrayList<>();
        registries.forEach((beanName, registry) -> registry.heldLocks().stream()
                .sorted(Comparator.comparing(HeldLock::name))
                .map(held -> HeldLockDescriptor.of(beanName, keyOf(registry, held.name()), held))
                .forEach(locks::add));
        return new HeldLocksDescriptor(locks, deployments == null ? List.of() : deployments.read());
    }

    /**
     * Who holds lock {@code name} now, whoever it is (this instance or another), and who waits for it, in order: one
     * entry per registry bean. Reads a couple of keys; changes nothing (a forced release, when turned on, is
     * {@link ForceReleasingDistlocksEndpoint}'s).
     */
    @ReadOperation
    public LockInfosDescriptor lock(@Selector String name) {
        List<LockInfoDescriptor> locks = new ArrayList<>();
        registries.forEach((beanName, registry) ->
                locks.add(LockInfoDescriptor.of(beanName, keyOf(registry, name), registry.inspect(name))));
        return new LockInfosDescriptor(locks);
    }

    private static String keyOf(LockRegistry registry, String name) {
        return registry instanceof RedisLockRegistry redis ? redis.keyOf(name) : name;
    }

    /**
     * What {@code GET /actuator/distlocks/{name}} answers.
     *
     * @param locks the lock as each registry bean sees it
     */
    public record LockInfosDescriptor(List<LockInfoDescriptor> locks) implements OperationResponseBody {
    }

    /**
     * One lock as one registry's backend knows it. Times are text and numbers, as in {@link HeldLockDescriptor}.
     *
     * @param registry the bean name of the registry asked
     * @param name the lock's name
     * @param key where the lock lives in the backend (the Redis key), or the name for other backends
     * @param held whether anybody holds it
     * @param holder who holds it (application, host, pid, instance, started), or {@code null} if free or unknown
     * @param fencingToken the current hold's fencing token, 0 if free or unknown
     * @param heldSince about when the current hold began, ISO-8601 in UTC, or {@code null}
     * @param remainingLeaseMillis the lease left; 0 if free, -1 if it never expires
     * @param waiting how many acquisitions (one per process) wait for it
     * @param queue the processes that wait for it, in the order the lock goes to them (first come, first served);
     *        at most the first 100 ({@code waiting} counts them all), empty if none (always with Redlock, which
     *        keeps no queue)
     * @param holds how many holds it has: 1 for a held lock; each taking of a semaphore's permits, each reader (or the
     *        writer) of a read-write lock, whose newest hold {@code holder} and the fields after it then describe
     * @param permitsInUse the permits those holds have together (a read-write lock's writer has all of them); 0 for
     *        a lock
     * @param permits the permits the name has: a semaphore's count, 1048576 for a read-write lock; 0 for a lock
     */
    public record LockInfoDescriptor(String registry, String name, String key, boolean held, Holder holder,
            long fencingToken, String heldSince, long remainingLeaseMillis, int waiting, List<Waiter> queue,
            int holds, int permitsInUse, int permits) {

        static LockInfoDescriptor of(String registry, String key, LockInfo info) {
            return new LockInfoDescriptor(registry, info.name(), key, info.held(), Holder.of(info.holder()),
                    info.fencingToken(), info.heldSince() == null ? null : info.heldSince().toString(),
                    info.remainingLease() == null ? -1 : info.remainingLease().toMillis(), info.waiting(),
                    info.queue().stream().map(Waiter::of).toList(), info.holds(), info.permitsInUse(), info.permits());
        }

        /** One lock with its queue: one hold if it is held. */
        public LockInfoDescriptor(String registry, String name, String key, boolean held, Holder holder,
                long fencingToken, String heldSince, long remainingLeaseMillis, int waiting, List<Waiter> queue) {
            this(registry, name, key, held, holder, fencingToken, heldSince, remainingLeaseMillis, waiting, queue,
                    held ? 1 : 0, 0, 0);
        }

        /**
         * One lock without the processes in its queue (only how many there are).
         *
         * @param registry the bean name of the registry asked
         * @param name the lock's name
         * @param key where the lock lives in the backend (the Redis key), or the name for other backends
         * @param held whether anybody holds it
         * @param holder who holds it, or {@code null} if free or unknown
         * @param fencingToken the current hold's fencing token, 0 if free or unknown
         * @param heldSince about when the current hold began, ISO-8601 in UTC, or {@code null}
         * @param remainingLeaseMillis the lease left; 0 if free, -1 if it never expires
         * @param waiting how many acquisitions wait for it
         */
        public LockInfoDescriptor(String registry, String name, String key, boolean held, Holder holder,
                long fencingToken, String heldSince, long remainingLeaseMillis, int waiting) {
            this(registry, name, key, held, holder, fencingToken, heldSince, remainingLeaseMillis, waiting, List.of());
        }
    }

    /**
     * One process in a lock's queue.
     *
     * @param instance the random id of its registry (always known: it starts the token it queued)
     * @param process who it is, as its registry announced itself, or {@code null} if not known (not announced yet,
     *        or not a distlock registry)
     */
    public record Waiter(String instance, Holder process) {

        static Waiter of(LockWaiter waiter) {
            return new Waiter(waiter.instance(), Holder.of(waiter.process()));
        }
    }

    /**
     * The registry (process) that holds a lock, or waits for one.
     *
     * @param application its {@code spring.application.name}, or {@code null}
     * @param host its host
     * @param pid its process id
     * @param instance its registry's random id
     * @param started when its registry started, ISO-8601 in UTC
     */
    public record Holder(String application, String host, long pid, String instance, String started) {

        /** The holder as the endpoint writes it; {@code null} for none. */
        static Holder of(LockHolder holder) {
            return holder == null ? null : new Holder(holder.application(), holder.host(), holder.pid(),
                    holder.instance(), holder.startedAt() == null ? null : holder.startedAt().toString());
        }
    }

    /**
     * What the endpoint answers.
     *
     * @param locks the holds, by registry bean name, then lock name
     * @param deployments what each registry runs on and what that setup cannot promise, by registry bean name
     */
    public record HeldLocksDescriptor(List<HeldLockDescriptor> locks, List<DeploymentReport> deployments)
            implements OperationResponseBody {
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
