package dev.distlock.micrometer;

import dev.distlock.aop.LockCallObserver.AcquireOutcome;
import dev.distlock.aop.LockCallObserver.Acquiring;
import dev.distlock.aop.LockCallObserver.HoldEnd;
import dev.distlock.aop.LockCallObserver.Holding;
import dev.distlock.core.HoldKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;

/**
 * Every meter of one lock label and kind of hold, registered together when the pair is first seen so that events only
 * look meters up in final fields and maps that never change after construction (no registry lookup on
 * the hot path), and dashboards see a zero rather than nothing for outcomes that have not happened yet.
 */
final class LabelMeters {

    private final Map<AcquireOutcome, Timer> acquire = new EnumMap<>(AcquireOutcome.class);
    private final Map<HoldEnd, Timer> held = new EnumMap<>(HoldEnd.class);
    private final LongTaskTimer active;
    private final Counter acquireRetrying;
    private final Counter lost;
    private final Counter releaseFailures;
    private final Counter renewalFailures;
    private final Counter skipped;
    /** What an annotated call's acquire tells these meters: only a skip, which the registry never learns of. */
    private final Acquiring skipCounter;

    LabelMeters(MeterRegistry registry, String label, HoldKind kind) {
        Tags tags = Tags.of(DistlockMetrics.LOCK_TAG, label, DistlockMetrics.KIND_TAG, kind.tag());
        for (AcquireOutcome outcome : DistlockMetrics.REGISTRY_OUTCOMES) {
            acquire.put(outcome, timer(registry, DistlockMetrics.ACQUIRE, tags, outcome.tagValue(),
                    "Time spent waiting to acquire a distributed lock, by outcome"));
        }
        for (HoldEnd end : HoldEnd.values()) {
            held.put(end, timer(registry, DistlockMetrics.HELD, tags, end.tagValue(),
                    "How long distributed locks were held, by how the hold ended"));
        }
        active = LongTaskTimer.builder(DistlockMetrics.HELD_ACTIVE)
                .description("Distributed locks held by this instance now, and for how long")
                .tags(tags)
                .register(registry);
        acquireRetrying = counter(registry, DistlockMetrics.ACQUIRE_RETRYING, tags,
                "Acquire calls that met only transient backend errors for a second and went on waiting");
        lost = counter(registry, DistlockMetrics.LOST, tags,
                "Holds found lost: the lease expired or another owner took the lock");
        releaseFailures = counter(registry, DistlockMetrics.RELEASE_FAILURES, tags,
                "Releases that failed in the backend; the key expires with its lease");
        renewalFailures = counter(registry, DistlockMetrics.RENEWAL_FAILURES, tags,
                "Lease renewals that failed in the backend; retried a tenth of the lease later (at most 1 s)");
        skipped = counter(registry, DistlockMetrics.SKIPPED, tags,
                "@DistributedLock(onTimeout = SKIP) calls that did not run their method: the lock stayed busy");
        skipCounter = new Acquiring() {

            @Override
            public Holding acquired(long fencingToken) {
                return Holding.NONE;
            }

            @Override
            public void missed(AcquireOutcome outcome, Throwable error) {
                if (outcome == AcquireOutcome.SKIPPED) {
                    skipped.increment();
                }
            }
        };
    }

    private static Timer timer(MeterRegistry registry, String name, Tags tags, String outcome,
            String description) {
        return Timer.builder(name).description(description).tags(tags).tag(DistlockMetrics.OUTCOME_TAG, outcome)
                .register(registry);
    }

    private static Counter counter(MeterRegistry registry, String name, Tags tags, String description) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }

    Timer acquire(AcquireOutcome outcome) {
        return acquire.get(outcome);
    }

    Timer held(HoldEnd end) {
        return held.get(end);
    }

    LongTaskTimer active() {
        return active;
    }

    Counter acquireRetrying() {
        return acquireRetrying;
    }

    Counter lost() {
        return lost;
    }

    Counter releaseFailures() {
        return releaseFailures;
    }

    Counter renewalFailures() {
        return renewalFailures;
    }

    Acquiring skipCounter() {
        return skipCounter;
    }
}
