package dev.distlock.test.simulation;

import java.time.Duration;

/**
 * The shape of a simulated run: how many processes and callers, on how many names, for how long, and what goes
 * wrong.
 *
 * @param processes registries, each a process of its own
 * @param callersPerProcess non-blocking callers per process, each taking and giving back locks in a loop
 * @param names how many names they share (more names, less contention)
 * @param setChance chance a call takes two names at once
 * @param lease the fixed lease of half the calls (the other half is renewed)
 * @param maxWait the longest wait of a call (each draws its own, from a single try up to this)
 * @param duration how long callers start new calls, in virtual time
 * @param faults what goes wrong meanwhile
 * @param readWriteChance chance a call takes a side of a read-write lock instead (a name of their own, {@code rw:}
 *        and a lock's name; a write one time in four), never with another name
 * @param blockingCallersPerProcess threads per process that take and give back locks with the blocking calls
 *        ({@code tryLock}, {@code unlock}), sometimes inside a hold of their own (re-entry), and may be interrupted
 */
public record Scenario(int processes, int callersPerProcess, int names, double setChance, Duration lease,
        Duration maxWait, Duration duration, Faults faults, double readWriteChance, int blockingCallersPerProcess) {

    /** Three processes of two callers on two names, ten virtual seconds, every kind of fault. */
    public static final Scenario DEFAULT = new Scenario(3, 2, 2, 0.2, Duration.ofMillis(400), Duration.ofMillis(800),
            Duration.ofSeconds(10), Faults.EVERY_KIND);

    /** {@link #DEFAULT} with half the calls on the sides of read-write locks. */
    public static final Scenario READ_WRITE = DEFAULT.withReadWrite(0.5);

    /**
     * Three processes of two blocking callers (threads) and one non-blocking caller on two names, a set in three
     * calls, every kind of fault, interrupts included.
     */
    public static final Scenario BLOCKING = new Scenario(3, 1, 2, 0.3, Duration.ofMillis(400), Duration.ofMillis(800),
            Duration.ofSeconds(10), Faults.EVERY_KIND).withBlockingCallers(2);

    /** A scenario of non-blocking callers on locks only. */
    public Scenario(int processes, int callersPerProcess, int names, double setChance, Duration lease,
            Duration maxWait, Duration duration, Faults faults) {
        this(processes, callersPerProcess, names, setChance, lease, maxWait, duration, faults, 0, 0);
    }

    /** This scenario with other faults. */
    public Scenario with(Faults other) {
        return new Scenario(processes, callersPerProcess, names, setChance, lease, maxWait, duration, other,
                readWriteChance, blockingCallersPerProcess);
    }

    /** This scenario with {@code chance} of a call taking a side of a read-write lock. */
    public Scenario withReadWrite(double chance) {
        return new Scenario(processes, callersPerProcess, names, setChance, lease, maxWait, duration, faults, chance,
                blockingCallersPerProcess);
    }

    /** This scenario with {@code threads} blocking callers per process besides its non-blocking ones. */
    public Scenario withBlockingCallers(int threads) {
        return new Scenario(processes, callersPerProcess, names, setChance, lease, maxWait, duration, faults,
                readWriteChance, threads);
    }
}
