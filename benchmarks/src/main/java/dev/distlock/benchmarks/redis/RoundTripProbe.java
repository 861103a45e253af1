package dev.distlock.benchmarks.redis;

import dev.distlock.benchmarks.contenders.Contender;
import dev.distlock.benchmarks.contenders.LockClient;
import dev.distlock.benchmarks.contenders.LockClient.Hold;
import dev.distlock.test.RespClient;
import java.util.concurrent.TimeUnit;

/**
 * Counts the round trips and commands of uncontended lock+unlock pairs of one contender: a warmed-up client
 * locks and unlocks one key {@code operations} times while {@link CommandMonitor} watches.
 */
public final class RoundTripProbe {

    private static final int WARMUP_OPERATIONS = 50;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String host;
    private final int port;
    private final RespClient control;

    /**
     * @param control a connection of the harness's own, for the marker commands
     */
    public RoundTripProbe(String host, int port, RespClient control) {
        this.host = host;
        this.port = port;
        this.control = control;
    }

    /** Watches {@code operations} lock+unlock pairs of a fresh client of {@code contender}. */
    public RoundTrips measure(Contender contender, int operations) throws InterruptedException {
        String key = "bench:roundtrips:" + contender.name();
        String marker = "bench-roundtrips-" + contender.name() + "-" + System.nanoTime();
        try (LockClient client = contender.newClient()) {
            // the same key: the first lock of a name also starts its fencing token count (two more commands)
            lockAndUnlock(client, key, WARMUP_OPERATIONS);
            try (CommandMonitor monitor = CommandMonitor.start(host, port, marker)) {
                control.command("ECHO", marker + "-start");
                lockAndUnlock(client, key, operations);
                control.command("ECHO", marker + "-end");
                if (!monitor.awaitEnd(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("MONITOR did not show the end marker within 30 s");
                }
                return new RoundTrips(contender.name(), operations, monitor.topLevel(), monitor.inScripts());
            }
        }
    }

    private static void lockAndUnlock(LockClient client, String key, int times) throws InterruptedException {
        for (int i = 0; i < times; i++) {
            Hold hold = client.tryLock(key, WAIT_NANOS);
            if (hold == null) {
                throw new IllegalStateException("an uncontended lock of " + key + " was not granted in 5 s");
            }
            hold.release();
        }
    }
}
