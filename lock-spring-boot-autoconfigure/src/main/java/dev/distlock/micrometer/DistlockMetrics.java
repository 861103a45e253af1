package dev.distlock.micrometer;

import dev.distlock.aop.LockCallObserver;
import dev.distlock.aop.LockCallObserver.AcquireOutcome;
import dev.distlock.aop.LockCallObserver.Acquiring;
import dev.distlock.aop.LockCallObserver.HoldEnd;
import dev.distlock.core.HoldKind;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

/**
 * A {@link LockListener} that records Micrometer meters for every registry it is registered with, and (through
 * {@link #skippedCalls()}) counts the {@code @DistributedLock} calls that skipped their method. Each meter has one
 * source: the registry's events for what the registry does, the annotated call for what only it decides.
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 * <tr><td>{@code distlock.acquire}</td><td>timer</td><td>{@code lock}, {@code outcome} =
 * {@code acquired | timeout | interrupted | error}</td><td>time spent waiting in an acquire call, by how it ended
 * ({@code error}: the backend failed)</td></tr>
 * <tr><td>{@code distlock.skipped}</td><td>counter</td><td>{@code lock}</td><td>{@code @DistributedLock(onTimeout =
 * SKIP)} calls that did not run their method because the lock stayed busy (their wait is a {@code timeout} of
 * {@code distlock.acquire})</td></tr>
 * <tr><td>{@code distlock.acquire.retrying}</td><td>counter</td><td>{@code lock}</td><td>acquire calls that
 * met only transient backend errors for a second (a replica refusing writes, a cluster down) and went on
 * waiting; counted once per call</td></tr>
 * <tr><td>{@code distlock.held}</td><td>timer</td><td>{@code lock}, {@code outcome} =
 * {@code released | lost | release_failed}</td><td>how long ended holds were held, by how they ended</td></tr>
 * <tr><td>{@code distlock.held.active}</td><td>long task timer</td><td>{@code lock}</td><td>holds open now:
 * how many ({@code active count}) and for how long ({@code duration}, {@code max})</td></tr>
 * <tr><td>{@code distlock.lost}</td><td>counter</td><td>{@code lock}</td><td>holds found lost: the lease
 * expired or another owner took the lock</td></tr>
 * <tr><td>{@code distlock.release.failures}</td><td>counter</td><td>{@code lock}</td><td>releases that failed
 * in the backend; the key expires with its lease</td></tr>
 * <tr><td>{@code distlock.renewal.failures}</td><td>counter</td><td>{@code lock}</td><td>lease renewals that
 * failed in the backend; the watchdog tries again a tenth of the lease later (at most 1 s)</td></tr>
 * <tr><td>{@code distlock.force.released}</td><td>counter</td><td>{@code registry}</td><td>holds an operator
 * ended through the {@code distlocks} endpoint's forced release ({@link #forcedReleases()}), by registry bean
 * name</td></tr>
 * </table>
 *
 * <p>The {@code lock} tag is the label the lock was obtained with ({@link LockEvent#label()}), or
 * {@value #UNLABELED} for locks without one; it is never the lock's name, which may hold an id such as
 * {@code order:12345}, so the number of meters depends on the labels only. The {@code kind} tag says what the hold
 * is of its name ({@link HoldKind#tag()}: {@code lock}, {@code permits}, {@code read} or {@code write}): all
 * thirteen meters of a label and kind are registered when the pair is first seen. Percentiles and histograms are off, as for every timer; turn them
 * on with Micrometer's meter filters (in Spring Boot, {@code management.metrics.distribution.*}).
 *
 * <p>Events may arrive on different threads (the acquirer, a releasing thread of a detached lock, the
 * watchdog): the meters are thread-safe, and each hold is tracked by lock name and fencing token so that it
 * ends once in {@code distlock.held} and {@code distlock.held.active} even if it is both found lost and
 * fails to release.
 */
public final class DistlockMetrics implements LockListener {

    /** Timer of the wait in acquire calls. */
    public static final String ACQUIRE = "distlock.acquire";

    /** Timer of the time ended holds were held. */
    public static final String HELD = "distlock.held";

    /** Long task timer of the holds open now. */
    public static final String HELD_ACTIVE = "distlock.held.active";

    /** Counter of acquire calls that met only transient backend errors for a while and went on waiting. */
    public static final String ACQUIRE_RETRYING = "distlock.acquire.retrying";

    /** Counter of holds found lost. */
    public static final String LOST = "distlock.lost";

    /** Counter of releases that failed in the backend. */
    public static final String RELEASE_FAILURES = "distlock.release.failures";

    /** Counter of renewals that failed in the backend. */
    public static final String RENEWAL_FAILURES = "distlock.renewal.failures";

    /** Counter of annotated calls that skipped their method. */
    public static final String SKIPPED = "distlock.skipped";

    /** Counter of holds an operator force-released through the endpoint. */
    public static final String FORCE_RELEASED = "distlock.force.released";

    /** Tag of {@value #FORCE_RELEASED} holding the bean name of the registry that released. */
    public static final String REGISTRY_TAG = "registry";

    /** The outcomes of {@value #ACQUIRE}: what a registry tells its listeners (a skip is the annotated call's). */
    static final List<AcquireOutcome> REGISTRY_OUTCOMES = List.of(AcquireOutcome.ACQUIRED, AcquireOutcome.TIMEOUT,
            AcquireOutcome.INTERRUPTED, AcquireOutcome.ERROR);

    /** Tag holding the lock's label. */
    public static final String LOCK_TAG = "lock";

    /** Tag holding what the hold is of its name: {@code lock}, {@code permits}, {@code read} or {@code write}. */
    public static final String KIND_TAG = "kind";

    /** Tag holding how an acquire call or a hold ended. */
    public static final String OUTCOME_TAG = "outcome";

    /** Value of the {@value #LOCK_TAG} tag for locks obtained without a label. */
    public static final String UNLABELED = "unlabeled";

    private final MeterRegistry registry;
    private final ConcurrentMap<MeterKey, LabelMeters> meters = new ConcurrentHashMap<>();
    private final ConcurrentMap<OpenHold, LongTaskTimer.Sample> openHolds = new ConcurrentHashMap<>();

    /** Records into {@code registry}. */
    public DistlockMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void onAcquired(LockEvent event) {
        LabelMeters labelMeters = metersOf(event);
        labelMeters.acquire(AcquireOutcome.ACQUIRED).record(event.elapsed());
        openHolds.put(OpenHold.of(event), labelMeters.active().start());
    }

    @Override
    public void onAcquireFailed(LockEvent event) {
        Throwable error = event.error();
        AcquireOutcome outcome = error == null ? AcquireOutcome.TIMEOUT
                : error instanceof InterruptedException ? AcquireOutcome.INTERRUPTED : AcquireOutcome.ERROR;
        metersOf(event).acquire(outcome).record(event.elapsed());
    }

    /**
     * The observer of {@code @DistributedLock} calls that counts in {@value #SKIPPED} those that skipped their
     * method; the starter registers it as a {@link LockCallObserver} bean beside the observations.
     */
    public LockCallObserver skippedCalls() {
        return new LockCallObserver() {
            @Override
            public Acquiring acquiring(String label, String key, Method method) {
                return acquiring(label, key, method, HoldKind.LOCK);
            }

            @Override
            public Acquiring acquiring(String label, String key, Method method, HoldKind kind) {
                return metersOf(label, kind).skipCounter();
            }
        };
    }

    /**
     * The counter of forced releases: called with a registry's bean name for each hold an operator ended through the
     * {@code distlocks} endpoint, it counts in {@value #FORCE_RELEASED}.
     */
    public Consumer<String> forcedReleases() {
        return registryName -> Counter.builder(FORCE_RELEASED).tag(REGISTRY_TAG, registryName)
                .description("Holds an operator force-released through the distlocks endpoint").register(registry)
                .increment();
    }

    @Override
    public void onReleased(LockEvent event) {
        end(event, HoldEnd.RELEASED);
    }

    @Override
    public void onLost(LockEvent event) {
        metersOf(event).lost().increment();
        end(event, HoldEnd.LOST);
    }

    @Override
    public void onReleaseFailed(LockEvent event) {
        metersOf(event).releaseFailures().increment();
        end(event, HoldEnd.RELEASE_FAILED);
    }

    @Override
    public void onAcquireRetrying(LockEvent event) {
        metersOf(event).acquireRetrying().increment();
    }

    @Override
    public void onRenewalFailed(LockEvent event) {
        metersOf(event).renewalFailures().increment();
    }

    private void end(LockEvent event, HoldEnd end) {
        LongTaskTimer.Sample sample = openHolds.remove(OpenHold.of(event));
        if (sample == null) {
            // ended already: a renewal found it lost while its release failed. One hold, one end.
            return;
        }
        sample.stop();
        metersOf(event).held(end).record(event.elapsed());
    }

    private LabelMeters metersOf(LockEvent event) {
        return metersOf(event.label() != null ? event.label() : UNLABELED, event.kind());
    }

    private LabelMeters metersOf(String label, HoldKind kind) {
        MeterKey key = new MeterKey(label, kind);
        LabelMeters existing = meters.get(key);
        // get first: computeIfAbsent may lock a bin even when the value is present
        return existing != null ? existing
                : meters.computeIfAbsent(key, added -> new LabelMeters(registry, added.label(), added.kind()));
    }

    /** The meters' tags of a hold: its label and kind. */
    private record MeterKey(String label, HoldKind kind) {
    }

    /** Identifies a hold: fencing tokens grow per name, so (name, token) is unique within one backend. */
    private record OpenHold(String name, long fencingToken) {

        static OpenHold of(LockEvent event) {
            return new OpenHold(event.lockName(), event.fencingToken());
        }
    }
}
