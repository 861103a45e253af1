package dev.distlock.core.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link LockStore} offers beyond its owner-checked operations, as one immutable value the engine reads once:
 * each capability is present or absent, never a flag beside a method that may or may not work.
 *
 * <pre>{@code
 * StoreCapabilities.builder().queue(this).reads(this).failures(this::classify).build()
 * }</pre>
 *
 * <p>The engine needs none of them to keep its promises; each makes something possible or cheaper: waiters served
 * in order ({@link #queue}), told of a hand-off instead of polling ({@link #handOffs}), commands sent without
 * blocking a thread ({@link #async}), fewer round trips ({@link #passingOn}, {@link #batchRenewal}), an operator's
 * view and way out ({@link #reads}, {@link #forcedRelease}, {@link #announcements}), another kind of hold
 * ({@link #permits}), retries only where a command
 * did not run or may have ({@link #failures}).
 */
public final class StoreCapabilities {

    private final WaitQueue queue;
    private final HandOffNotices handOffs;
    private final AsyncLockStore async;
    private final PassingOn passingOn;
    private final BatchRenewal batchRenewal;
    private final FenceRaising fenceRaising;
    private final LockReads reads;
    private final ForcedRelease forcedRelease;
    private final Announcements announcements;
    private final PermitClaims permits;
    private final FailureClassifier failures;

    private StoreCapabilities(Builder builder) {
        this.queue = builder.queue;
        this.handOffs = builder.handOffs;
        this.async = builder.async;
        this.passingOn = builder.passingOn;
        this.batchRenewal = builder.batchRenewal;
        this.fenceRaising = builder.fenceRaising;
        this.reads = builder.reads;
        this.forcedRelease = builder.forcedRelease;
        this.announcements = builder.announcements;
        this.permits = builder.permits;
        this.failures = builder.failures;
    }

    /** A store with no capability yet; every failure permanent. */
    public static Builder builder() {
        return new Builder();
    }

    /** This value, to change some capabilities: how a store that wraps another offers what it offers. */
    public Builder toBuilder() {
        return new Builder().queue(queue).handOffs(handOffs).async(async).passingOn(passingOn)
                .batchRenewal(batchRenewal).fenceRaising(fenceRaising).reads(reads).forcedRelease(forcedRelease)
                .announcements(announcements).permits(permits).failures(failures);
    }

    /** Waiters queue in the store, and give up by leaving the queue. */
    public Optional<WaitQueue> queue() {
        return Optional.ofNullable(queue);
    }

    /** Waiters are told that a release handed them the lock; without it, they poll. */
    public Optional<HandOffNotices> handOffs() {
        return Optional.ofNullable(handOffs);
    }

    /**
     * The operations sent without blocking the caller; without it, the engine makes the blocking ones on a bounded
     * pool for non-blocking callers and the background. Blocking callers make the blocking ones on their own thread.
     */
    public Optional<AsyncLockStore> async() {
        return Optional.ofNullable(async);
    }

    /** A release and the next local caller's try in one call. */
    public Optional<PassingOn> passingOn() {
        return Optional.ofNullable(passingOn);
    }

    /** Several renewals in one call. */
    public Optional<BatchRenewal> batchRenewal() {
        return Optional.ofNullable(batchRenewal);
    }

    /** A fencing token chosen elsewhere made binding. */
    public Optional<FenceRaising> fenceRaising() {
        return Optional.ofNullable(fenceRaising);
    }

    /** Whether a lock is held, by whom, and who waits. */
    public Optional<LockReads> reads() {
        return Optional.ofNullable(reads);
    }

    /** An operator ends a hold that is not theirs. */
    public Optional<ForcedRelease> forcedRelease() {
        return Optional.ofNullable(forcedRelease);
    }

    /** Who the registries using the store are. */
    public Optional<Announcements> announcements() {
        return Optional.ofNullable(announcements);
    }

    /** Semaphores with leased permits: a try that takes permits of a name instead of its lock. */
    public Optional<PermitClaims> permits() {
        return Optional.ofNullable(permits);
    }

    /** What a failure of the store's operations means; every failure permanent unless the store says otherwise. */
    public FailureClassifier failures() {
        return failures;
    }

    /** Builds a {@link StoreCapabilities}; {@code null} leaves a capability out. */
    public static final class Builder {

        private WaitQueue queue;
        private HandOffNotices handOffs;
        private AsyncLockStore async;
        private PassingOn passingOn;
        private BatchRenewal batchRenewal;
        private FenceRaising fenceRaising;
        private LockReads reads;
        private ForcedRelease forcedRelease;
        private Announcements announcements;
        private PermitClaims permits;
        private FailureClassifier failures = FailureClassifier.PERMANENT;

        private Builder() {
        }

        /** See {@link StoreCapabilities#queue()}. */
        public Builder queue(WaitQueue queue) {
            this.queue = queue;
            return this;
        }

        /** See {@link StoreCapabilities#handOffs()}. */
        public Builder handOffs(HandOffNotices handOffs) {
            this.handOffs = handOffs;
            return this;
        }

        /** See {@link StoreCapabilities#async()}. */
        public Builder async(AsyncLockStore async) {
            this.async = async;
            return this;
        }

        /** See {@link StoreCapabilities#passingOn()}. */
        public Builder passingOn(PassingOn passingOn) {
            this.passingOn = passingOn;
            return this;
        }

        /** See {@link StoreCapabilities#batchRenewal()}. */
        public Builder batchRenewal(BatchRenewal batchRenewal) {
            this.batchRenewal = batchRenewal;
            return this;
        }

        /** See {@link StoreCapabilities#fenceRaising()}. */
        public Builder fenceRaising(FenceRaising fenceRaising) {
            this.fenceRaising = fenceRaising;
            return this;
        }

        /** See {@link StoreCapabilities#reads()}. */
        public Builder reads(LockReads reads) {
            this.reads = reads;
            return this;
        }

        /** See {@link StoreCapabilities#forcedRelease()}. */
        public Builder forcedRelease(ForcedRelease forcedRelease) {
            this.forcedRelease = forcedRelease;
            return this;
        }

        /** See {@link StoreCapabilities#announcements()}. */
        public Builder announcements(Announcements announcements) {
            this.announcements = announcements;
            return this;
        }

        /** See {@link StoreCapabilities#permits()}. */
        public Builder permits(PermitClaims permits) {
            this.permits = permits;
            return this;
        }

        /** See {@link StoreCapabilities#failures()}. */
        public Builder failures(FailureClassifier failures) {
            this.failures = Objects.requireNonNull(failures, "failures");
            return this;
        }

        /** The value. */
        public StoreCapabilities build() {
            return new StoreCapabilities(this);
        }
    }
}
