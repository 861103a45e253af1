package dev.distlock.core.engine;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.PassingOn;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.StoreFailure;
import dev.distlock.core.spi.WaitQueue;
import dev.distlock.memory.InMemoryLockStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An in-memory store that can refuse or fail chosen commands, and that passes a lock on to the next local caller in
 * one call when asked to ({@link #FaultyStore(boolean)}): what the engine's release and hand-off rules turn on, without
 * Redis.
 */
public final class FaultyStore implements LockStore, WaitQueue, PassingOn, LockReads {

    /** A command the store refused without running it. */
    public static final class Refused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public Refused(String command) {
            super("refused: " + command);
        }
    }

    /** A command that failed and may have run. */
    public static final class Failed extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public Failed(String command) {
            super("failed: " + command);
        }
    }

    public final InMemoryLockStore memory = new InMemoryLockStore();
    /** Whether a release hands the gate on with the next caller's try. */
    private final boolean passesOn;
    /** How many of the next passOn calls are refused. */
    public final AtomicInteger refusePassOns = new AtomicInteger();
    /** How many of the next release calls are refused. */
    public final AtomicInteger refuseReleases = new AtomicInteger();
    /** How many of the next release calls fail with no answer (they may have run). */
    public final AtomicInteger failReleases = new AtomicInteger();
    /** How many of the next extend calls fail (with no answer). */
    public final AtomicInteger failExtends = new AtomicInteger();
    /** How many of the next abandon calls fail without running. */
    public final AtomicInteger failAbandons = new AtomicInteger();
    /** How many of the next tries run, then fail as if their reply was lost. */
    public final AtomicInteger failTries = new AtomicInteger();
    /** How many of the next tries fail for good, without running. */
    public final AtomicInteger rejectTries = new AtomicInteger();
    /** How long the next try's reply takes, in milliseconds (once). */
    public final AtomicInteger slowTryMillis = new AtomicInteger();
    /**
     * Runs once, within the next try, after the store ran it and before its reply goes back: what happens while that
     * reply is on its way (a release by another process, the clock moving on, an interrupt).
     */
    public final AtomicReference<Runnable> duringNextTry = new AtomicReference<>();
    /** Runs once, within the next passOn, after the store ran it and before its reply goes back. */
    public final AtomicReference<Runnable> duringNextPassOn = new AtomicReference<>();
    /** Runs once, within the next leaveQueue, before the store runs it. */
    public final AtomicReference<Runnable> beforeNextLeave = new AtomicReference<>();
    /** Runs once, when the next call subscribes to hand-off notices (on the thread that subscribes). */
    public final AtomicReference<Runnable> onNextNoticeSubscription = new AtomicReference<>();
    /** The commands sent, in order, as "command name token". */
    public final List<String> sent = new CopyOnWriteArrayList<>();

    /** A store that does not pass locks on in one call. */
    public FaultyStore() {
        this(false);
    }

    /** A store that passes locks on in one call if {@code passesOn}. */
    public FaultyStore(boolean passesOn) {
        this.passesOn = passesOn;
    }

    /** How many commands starting with {@code prefix} were sent. */
    public long count(String prefix) {
        return sent.stream().filter(command -> command.startsWith(prefix)).count();
    }

    /** The tokens of the tries sent for {@code name}, in order, without repeats. */
    public List<String> triedTokens(String name) {
        return sent.stream().filter(command -> command.startsWith("tryAcquire " + name + " "))
                .map(command -> command.substring(command.lastIndexOf(' ') + 1)).distinct().toList();
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        sent.add("tryAcquire " + name + " " + token);
        if (rejectTries.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("ERR no such script");
        }
        AcquireResult answer = memory.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis);
        if (failTries.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Failed("tryAcquire");
        }
        Runnable during = duringNextTry.getAndSet(null);
        if (during != null) {
            during.run();
        }
        int slow = slowTryMillis.getAndSet(0);
        if (slow > 0) {
            try {
                Thread.sleep(slow); // a reply that takes this long, as a paused process or a slow network would
            } catch (InterruptedException interrupt) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupt);
            }
        }
        return answer;
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        Runnable before = beforeNextLeave.getAndSet(null);
        if (before != null) {
            before.run();
        }
        return memory.leaveQueue(name, token, leaseMillis);
    }

    /** How many of the next release calls fail as a client does whose wait an interrupt broke, before they run. */
    public final AtomicInteger interruptReleases = new AtomicInteger();
    /** How many of the next release calls run, then fail as a client does whose wait an interrupt broke. */
    public final AtomicInteger interruptRanReleases = new AtomicInteger();
    /** If set, the releases that run wait for it (at most 5 s): a store that does not answer them. */
    public volatile java.util.concurrent.CountDownLatch laterReleasesWaitFor;

    /** A client's failure when an interrupt broke its caller's wait for the answer (as Lettuce's). */
    static RuntimeException interruptedWait() {
        return new IllegalStateException("Command interrupted", new InterruptedException());
    }

    /** The clock {@link #releasedAt} is read on. */
    public volatile java.util.function.LongSupplier clock = System::nanoTime;
    /** When each release call came, on {@link #clock}. */
    public final List<Long> releasedAt = new CopyOnWriteArrayList<>();

    @Override
    public boolean release(String name, String token, long fencingToken) {
        sent.add("release " + name + " " + token);
        releasedAt.add(clock.getAsLong());
        if (refuseReleases.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Refused("release");
        }
        if (failReleases.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Failed("release");
        }
        if (interruptReleases.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw interruptedWait();
        }
        java.util.concurrent.CountDownLatch gate = laterReleasesWaitFor;
        if (gate != null) {
            try {
                gate.await(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException interrupt) {
                Thread.currentThread().interrupt();
            }
        }
        boolean released = memory.release(name, token, fencingToken);
        if (interruptRanReleases.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw interruptedWait();
        }
        return released;
    }

    @Override
    public PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        sent.add("passOn " + name + " " + token + " " + next);
        if (refusePassOns.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Refused("passOn");
        }
        PassOn passed = new PassOn(memory.release(name, token, fencingToken),
                memory.tryAcquire(name, next, leaseMillis, queue, waiterTimeoutMillis));
        Runnable during = duringNextPassOn.getAndSet(null);
        if (during != null) {
            during.run();
        }
        return passed;
    }

    @Override
    public void abandon(String name, String token) {
        sent.add("abandon " + name + " " + token);
        if (failAbandons.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Failed("abandon");
        }
        memory.abandon(name, token);
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        sent.add("extend " + name + " " + token);
        if (failExtends.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Failed("extend");
        }
        return memory.extend(name, token, leaseMillis);
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        sent.add("renew " + name + " " + token);
        return memory.renew(name, token, leaseMillis);
    }

    /** What the next lease reads answer instead of the store's own (once set); {@code null}: the store's. */
    volatile Long remainingLeaseAnswer;

    @Override
    public long remainingLeaseMillis(String name, String token) {
        Long answer = remainingLeaseAnswer;
        return answer != null ? answer : memory.remainingLeaseMillis(name, token);
    }

    @Override
    public boolean isLocked(String name) {
        return memory.isLocked(name);
    }

    @Override
    public LockSnapshot inspect(String name) {
        return memory.inspect(name);
    }

    /** Whether a hand-off notice is trusted without asking the store. */
    public volatile boolean noticesTrusted = true;
    /** Completes when hand-off notices are heard; until then, none is. Heard from the start by default. */
    public volatile CompletableFuture<Void> listening = CompletableFuture.completedFuture(null);
    /** How often the engine asked to hear notices. */
    public final AtomicInteger listens = new AtomicInteger();

    /**
     * The in-memory store's queue and announcements; its own reads, passing on (if asked), hand-off notices as the
     * fields below say, and failures told apart: {@link Refused} is refused, {@link Failed} in doubt.
     */
    @Override
    public StoreCapabilities capabilities() {
        return StoreCapabilities.builder().queue(this).reads(this).passingOn(passesOn ? this : null)
                .handOffs(notices()).announcements(memory.capabilities().announcements().orElseThrow())
                .failures(FaultyStore::classify).build();
    }

    private HandOffNotices notices() {
        return new HandOffNotices() {
            @Override
            public Subscription await(String name, String token, java.util.function.Consumer<Grant> onGrant) {
                Runnable on = onNextNoticeSubscription.getAndSet(null);
                if (on != null) {
                    on.run();
                }
                return memory.await(name, token, onGrant);
            }

            @Override
            public boolean trusted() {
                return noticesTrusted;
            }

            @Override
            public boolean listening() {
                return listening.isDone();
            }

            @Override
            public CompletableFuture<Void> listen() {
                listens.incrementAndGet();
                return listening;
            }
        };
    }

    static StoreFailure classify(RuntimeException failure) {
        return failure instanceof Refused ? StoreFailure.REFUSED
                : failure instanceof Failed ? StoreFailure.IN_DOUBT : StoreFailure.PERMANENT;
    }

    @Override
    public void close() {
    }
}
