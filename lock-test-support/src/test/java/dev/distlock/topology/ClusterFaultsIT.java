package dev.distlock.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.cluster.ClusterNode;
import dev.distlock.test.cluster.HashSlots;
import dev.distlock.test.cluster.MigrationPhase;
import dev.distlock.test.cluster.RedisCluster;
import dev.distlock.test.cluster.RedisClusterExtension;
import dev.distlock.test.cluster.SlotRange;
import dev.distlock.test.contract.RecordingListener;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real 6-node Redis Cluster whose slots move and whose primaries fail over or die while locks are held and
 * waited for, through Lettuce with topology refresh on: callers whose wait has time left see no errors, no
 * two holders overlap, a holder on a dead primary reports its loss before anybody else acquires, locks on
 * healthy shards go on, and nothing is left behind.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterFaultsIT {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    @Test
    void locksOnNamesOverEverySlotOwnerExcludeEachOtherAndLeaveNothingBehind() {
        RedisLockRegistry mine = registry(Duration.ofSeconds(2), UnaryOperator.identity());
        RedisLockRegistry theirs = registry(Duration.ofSeconds(2), UnaryOperator.identity());
        Set<String> owners = new HashSet<>();
        List<FencedLock> held = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String name = "spread:" + i;
            owners.add(cluster().primaryForKey(mine.keyOf(name)).id());
            FencedLock lock = mine.obtain(name);
            assertThat(lock.tryLock()).as(name).isTrue();
            assertThat(theirs.obtain(name).tryLock()).as(name).isFalse();
            held.add(lock);
        }
        held.forEach(FencedLock::unlock);

        assertThat(owners).as("names on every primary").hasSize(3);
        for (int i = 0; i < 200; i++) {
            assertThat(theirs.obtain("spread:" + i).isLocked()).isFalse();
        }
    }

    /**
     * A held and awaited lock's slot moved by hand, phase by phase ({@code SETSLOT IMPORTING}/{@code MIGRATING},
     * {@code MIGRATE} of its keys, {@code SETSLOT NODE}): its scripts meet {@code TRYAGAIN} and {@code ASK} on
     * the way, which the lock tries again within the wait; the holder keeps renewing, the waiter gets the lock
     * after it, and tries made during each phase answer without errors.
     */
    @Test
    void aHeldAndAwaitedLocksSlotMovedByHandShowsNoCallerAnErrorAndNoLoss() throws Exception {
        RecordingListener listener = new RecordingListener();
        RedisLockRegistry holderProcess = registry(Duration.ofSeconds(2), b -> b.listener(listener));
        RedisLockRegistry waiterProcess = registry(Duration.ofSeconds(2), b -> b.listener(listener)
                .maxPollInterval(Duration.ofMillis(100)));
        RedisLockRegistry prober = registry(Duration.ofSeconds(2), UnaryOperator.identity());
        FencedLock holder = holderProcess.obtain("job", Lease.renewed(Duration.ofMillis(900)));
        holder.lock();
        long holderFence = holder.fencingToken();
        CompletableFuture<Long> waiter = lockInBackground(waiterProcess.obtain("job"));
        String key = holderProcess.keyOf("job");
        awaitUntil(() -> Long.valueOf(1).equals(cluster().primaryForKey(key).command("LLEN", key + ":queue")));
        ClusterNode source = cluster().primaryForKey(key);
        ClusterNode target = otherPrimary(source);
        List<Throwable> probeErrors = new ArrayList<>();

        cluster().migrateSlot(HashSlots.of(key), target, phase -> {
            // let renewals (every 300 ms) and waiter polls (every 100 ms) happen in this phase, and try once
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(700));
            try {
                assertThat(prober.obtain("job").tryLock(Duration.ofMillis(300))).as(phase.name()).isFalse();
            } catch (Exception | AssertionError failure) {
                probeErrors.add(failure);
            }
        });

        assertThat(probeErrors).isEmpty();
        assertThat(cluster().primaryForKey(key).id()).isEqualTo(target.id());
        assertThat(holder.isHeldByCurrentThread()).isTrue();
        holder.unlock();
        assertThat(waiter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isGreaterThan(holderFence);
        assertThat(listener.events("lost")).isEmpty();
        assertNoLockKeys(key);
    }

    /**
     * {@code redis-cli --cluster reshard} under load: two processes, three threads each, on names whose slots
     * move. The issue measured 81 failed tries and 3 failed unlocks for a 148 ms reshard; now none.
     */
    @Test
    void aReshardUnderLoadShowsNoCallerAnErrorAndMakesNoTwoHolders() throws Exception {
        ClusterNode source = cluster().primaries().get(0);
        ClusterNode target = cluster().primaries().get(1);
        SlotRange lowest = cluster().topology().node(source.id()).orElseThrow().slots().get(0);
        List<RedisLockRegistry> processes = List.of(registry(Duration.ofSeconds(2), UnaryOperator.identity()),
                registry(Duration.ofSeconds(2), UnaryOperator.identity()));
        List<String> names = namesInSlots(processes.get(0), lowest.start(), lowest.start() + 40, 6);
        // one protected resource per lock name
        Map<String, FencedResource> resources = new HashMap<>();
        names.forEach(name -> resources.put(name, new FencedResource()));
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                LockRegistry registry = processes.get(t % 2);
                workers.add(threads.submit(() -> {
                    int i = 0;
                    while (running.get()) {
                        String name = names.get(i++ % names.size());
                        resources.get(name).use(registry.obtain(name), Duration.ofSeconds(10));
                    }
                    return null;
                }));
            }
            awaitUntil(() -> writes(resources) > 50);
            int writesBefore = writes(resources);
            long reshardStart = System.nanoTime();
            String output = cluster().reshard(source, target, 100);
            report("reshard of 100 slots under load took " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                    - reshardStart) + " ms");
            awaitUntil(() -> writes(resources) > writesBefore + 50);
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
            assertThat(output).contains("Moving slot");
        } finally {
            running.set(false);
            threads.shutdownNow();
        }

        report("reshard under load: " + writes(resources) + " writes, "
                + resources.values().stream().mapToInt(r -> r.callerErrors.size()).sum() + " caller errors");
        assertThat(cluster().primaryForKey(processes.get(0).keyOf(names.get(0))).id()).isEqualTo(target.id());
        assertThat(resources.values()).allSatisfy(resource -> {
            assertThat(resource.callerErrors).as("errors callers saw").isEmpty();
            assertThat(resource.maxInside()).as("holders at once").isEqualTo(1);
            assertThat(resource.staleWrites()).isZero();
        });
        for (String name : names) {
            assertNoLockKeys(processes.get(0).keyOf(name));
        }
    }

    /** {@code CLUSTER FAILOVER} of the slot's primary while the lock is held and awaited: nothing is lost. */
    @Test
    void aManualFailoverWhileHeldAndAwaitedKeepsTheHoldAndTheQueue() throws Exception {
        RecordingListener listener = new RecordingListener();
        RedisLockRegistry holderProcess = registry(Duration.ofSeconds(1), b -> b.listener(listener));
        RedisLockRegistry waiterProcess = registry(Duration.ofSeconds(1), b -> b.listener(listener)
                .maxPollInterval(Duration.ofMillis(200)));
        FencedLock holder = holderProcess.obtain("job", Lease.renewed(Duration.ofSeconds(3)));
        holder.lock();
        long holderFence = holder.fencingToken();
        CompletableFuture<Long> waiter = lockInBackground(waiterProcess.obtain("job"));
        String key = holderProcess.keyOf("job");
        awaitUntil(() -> Long.valueOf(1).equals(cluster().primaryForKey(key).command("LLEN", key + ":queue")));
        ClusterNode primary = cluster().primaryForKey(key);

        cluster().failover(cluster().replicasOf(primary).get(0));
        // a renewal period and more on the new primary
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));

        assertThat(cluster().primaryForKey(key).id()).isNotEqualTo(primary.id());
        assertThat(holder.isHeldByCurrentThread()).isTrue();
        holder.unlock();
        assertThat(waiter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isGreaterThan(holderFence);
        assertThat(listener.events("lost")).isEmpty();
    }

    /**
     * A primary killed (SIGKILL) while a lock on it is held, with another process waiting for it and a lock
     * on a healthy shard held too: the holder either keeps its lock or reports the loss before the other
     * process acquires; the healthy shard's lock is renewed all along.
     */
    @Test
    void aKilledPrimaryMakesNoTwoHoldersAndLeavesHealthyShardsAlone() throws Exception {
        RecordingListener listener = new RecordingListener();
        RedisLockRegistry holderProcess = registry(Duration.ofSeconds(1), b -> b.listener(listener));
        RedisLockRegistry otherProcess = registry(Duration.ofSeconds(1), b -> b.maxPollInterval(Duration.ofMillis(200)));
        String doomedName = "doomed";
        ClusterNode doomed = cluster().primaryForKey(holderProcess.keyOf(doomedName));
        String healthyName = namesOn(holderProcess, otherPrimary(doomed), 1).get(0);
        FencedLock doomedLock = holderProcess.obtain(doomedName, Lease.renewed(Duration.ofSeconds(3)));
        FencedLock healthyLock = holderProcess.obtain(healthyName, Lease.renewed(Duration.ofSeconds(3)));
        doomedLock.lock();
        healthyLock.lock();
        AtomicReference<Instant> otherAcquiredAt = new AtomicReference<>();
        FencedLock other = otherProcess.obtain(doomedName);
        CompletableFuture<Boolean> otherWaiting = CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                try {
                    if (other.tryLock(Duration.ofSeconds(5))) {
                        otherAcquiredAt.set(Instant.now());
                        other.unlock();
                        return true;
                    }
                } catch (RuntimeException | InterruptedException stillFailingOver) {
                    // the shard is failing over; a real caller would get this error, then try again
                }
            }
            return false;
        });

        Instant killedAt = Instant.now();
        doomed.kill();
        // the holder's loss first: it comes at its own deadline, and waiting for the failover to be seen first could
        // take the moment it was noticed past the other process's acquisition on a loaded machine
        awaitUntil(() -> !doomedLock.isHeldByCurrentThread() || otherWaiting.isDone());
        Instant holderGaveUpAt = Instant.now();
        cluster().awaitFailover(doomed);
        Instant failedOverAt = Instant.now();
        boolean lossReported = !listener.events("lost").isEmpty();
        if (!lossReported) {
            doomedLock.unlock(); // it kept the lock through the failover: release it, then the other may take it
        }

        assertThat(otherWaiting.get(90, TimeUnit.SECONDS)).isTrue();
        report("primary killed (lease 3 s, command timeout 1 s): failover after "
                + Duration.between(killedAt, failedOverAt).toMillis() + " ms, holder "
                + (lossReported ? "reported the loss" : "kept the lock") + " by "
                + Duration.between(killedAt, holderGaveUpAt).toMillis() + " ms, the other process acquired after "
                + Duration.between(killedAt, otherAcquiredAt.get()).toMillis() + " ms");
        assertThat(otherAcquiredAt.get()).as("the other process acquired only after the holder let go")
                .isAfterOrEqualTo(lossReported ? holderGaveUpAt.minusMillis(50) : holderGaveUpAt);
        assertThat(healthyLock.isHeldByCurrentThread()).as("the healthy shard's lock").isTrue();
        assertThat(listener.events("lost")).allSatisfy(event -> assertThat(event.lockName()).isEqualTo(doomedName));
        healthyLock.unlock();
        if (lossReported) {
            assertThat(doomedLock.isHeldByCurrentThread()).isFalse();
        }
    }

    // --- helpers ---

    /** Figures for docs/RELIABILITY.md, in the test output. */
    private static void report(String figure) {
        System.out.println("[reliability] cluster: " + figure);
    }

    private static RedisCluster cluster() {
        return redis.cluster();
    }

    private RedisLockRegistry registry(Duration commandTimeout, UnaryOperator<RedisLockRegistry.Builder> settings) {
        LettuceConnectionFactory factory = TopologyConnections.lettuceCluster(cluster(), commandTimeout);
        closeables.push(factory::destroy);
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(factory)).build();
        closeables.push(registry);
        return registry;
    }

    private static int writes(Map<String, FencedResource> resources) {
        return resources.values().stream().mapToInt(FencedResource::writes).sum();
    }

    private static ClusterNode otherPrimary(ClusterNode primary) {
        return cluster().primaries().stream().filter(node -> !node.id().equals(primary.id())).findFirst().orElseThrow();
    }

    /** {@code count} lock names whose keys hash into slots {@code from} to {@code to}. */
    private static List<String> namesInSlots(RedisLockRegistry registry, int from, int to, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; names.size() < count; i++) {
            int slot = HashSlots.of(registry.keyOf("hot:" + i));
            if (slot >= from && slot <= to) {
                names.add("hot:" + i);
            }
        }
        return names;
    }

    /** {@code count} lock names whose keys are served by {@code primary}. */
    private static List<String> namesOn(RedisLockRegistry registry, ClusterNode primary, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; names.size() < count; i++) {
            if (cluster().primaryForKey(registry.keyOf("on:" + i)).id().equals(primary.id())) {
                names.add("on:" + i);
            }
        }
        return names;
    }

    private static CompletableFuture<Long> lockInBackground(FencedLock lock) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                if (!lock.tryLock(PATIENCE)) {
                    return -1L;
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return -1L;
            }
            long fence = lock.fencingToken();
            lock.unlock();
            return fence;
        });
    }

    /** The lock is free, and its queue and waiters are gone (the freed lock's last token expires on its own). */
    private static void assertNoLockKeys(String key) {
        ClusterNode owner = cluster().primaryForKey(key);
        awaitUntil(() -> Long.valueOf(0).equals(owner.command("EXISTS", key + ":queue", key + ":waiters"))
                && (owner.command("GET", key) == null || ((String) owner.command("GET", key)).startsWith("~ ")));
    }

    private static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within " + PATIENCE).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
