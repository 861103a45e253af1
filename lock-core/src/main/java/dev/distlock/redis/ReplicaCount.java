package dev.distlock.redis;

import dev.distlock.core.runtime.DaemonThreads;
import java.util.ArrayDeque;
import java.util.Properties;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * How many replicas a lock write waits for ({@link ReplicaAcks}): the fixed number, none, or the replicas the
 * primary has online at the time. Those are read from {@code INFO replication}: a replica is online while its link
 * is up and it acknowledged the stream within the last {@value #MAX_LAG_SECONDS} seconds (replicas do every
 * second). The count is the most replicas online in the readings of the last {@value #GRACE_SECONDS} seconds: a
 * primary whose replica was just promoted away (a failover) sees it go at once, and must not go on granting and
 * renewing locks unacknowledged before Sentinel demotes it; a replica that is gone for good stops holding locks up
 * after that long, not at the server's {@code repl-timeout}. A reading is taken again once it is a second old and
 * at once after a shortfall, on a thread of this class's own (a caller of {@link #now()} never waits for it). On
 * Redis Cluster there are none to wait for: {@code WAIT} cannot reach the primary of a lock's slot there.
 */
final class ReplicaCount implements AutoCloseable {

    /** Not read yet: whoever may block reads it ({@link #required()}). */
    static final int UNKNOWN = -1;
    static final int MAX_LAG_SECONDS = 2;
    static final int GRACE_SECONDS = 10;
    private static final long READING_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Logger log = LoggerFactory.getLogger(ReplicaCount.class);

    private final ReplicaAcks acks;
    /** Whether the count follows the replicas online (not on a cluster, where there are none to wait for). */
    private final boolean following;
    private final RedisConnectionFactory redis;
    private final AtomicBoolean reading = new AtomicBoolean();
    /** One daemon thread, made when needed; its queue takes work without a lock, so a caller never parks. */
    private final ThreadPoolExecutor reader = DaemonThreads.pool("distlock-replicas", 1, 10);
    /** The readings of the last {@value #GRACE_SECONDS} seconds, oldest first; read and written by one reading at a time. */
    private final Readings readings = new Readings(TimeUnit.SECONDS.toNanos(GRACE_SECONDS));
    private volatile int online;
    private volatile long readAtNanos;

    ReplicaCount(ReplicaAcks acks, RedisConnectionFactory redis) {
        this.acks = acks;
        this.following = acks.followsConnected() && !ClusterDetection.isCluster(redis);
        this.redis = redis;
        this.online = following ? UNKNOWN : 0;
    }

    ReplicaAcks acks() {
        return acks;
    }

    /**
     * How many replicas the write must wait for, without blocking: {@link #UNKNOWN} before the first reading of the
     * replicas online (the caller hands the write to a thread that may block, see {@link #required()}).
     */
    int now() {
        if (!following) {
            return acks.fixed() ? acks.replicas() : 0;
        }
        int count = online;
        if (count != UNKNOWN && System.nanoTime() - readAtNanos > READING_AGE_NANOS) {
            readSoon();
        }
        return count;
    }

    /** How many replicas the write must wait for; reads them here if they were never read (the caller may block). */
    int required() {
        int count = now();
        if (count == UNKNOWN) {
            count = readFirst();
        }
        return count;
    }

    /** The first reading, made once however many callers ask for it at the same time. */
    private synchronized int readFirst() {
        if (online == UNKNOWN) {
            read();
        }
        return online;
    }

    /** Whether a hand-off notice alone makes its waiter the owner: only while no replica must acknowledge. */
    boolean trusted() {
        return now() == 0;
    }

    /** A write came up short: perhaps a replica went away, or the primary changed; read them again now. */
    void shortfall() {
        if (following && online != UNKNOWN) {
            readAtNanos = System.nanoTime() - READING_AGE_NANOS - 1;
            readSoon();
        }
    }

    private void readSoon() {
        if (reading.compareAndSet(false, true)) {
            try {
                reader.execute(() -> {
                    try {
                        read();
                    } catch (RuntimeException failure) {
                        log.debug("Reading the replicas online failed; the last count stays", failure);
                    } finally {
                        reading.set(false);
                    }
                });
            } catch (RuntimeException closed) {
                reading.set(false);
            }
        }
    }

    private synchronized void read() {
        long now = System.nanoTime();
        readAtNanos = now; // a failing read is tried again a second later, not by every call
        Properties replication;
        try (RedisConnection connection = redis.getConnection()) {
            replication = connection.serverCommands().info("replication");
        } catch (RuntimeException failure) {
            String refusal = permissionRefusal(failure);
            if (refusal == null) {
                throw failure;
            }
            if (online != 0) {
                log.warn("distlock cannot read INFO replication (the Redis user lacks +info: {}), so lock writes wait "
                        + "for no replica; grant +info, or set the replicas to wait for explicitly", refusal);
            }
            online = 0;
            return;
        }
        online = readings.add(now, online(replication));
    }

    /**
     * What Redis said when it refused the command to the user ({@code NOPERM ...}), found anywhere in the failure's
     * causes (Spring Data wraps it); {@code null} for any other failure.
     */
    private static String permissionRefusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.contains("NOPERM")) {
                return message;
            }
        }
        return null;
    }

    /**
     * The replicas of {@code INFO replication} whose link is online and that acknowledged within the last
     * {@value #MAX_LAG_SECONDS} seconds ({@code slaveN:ip=…,port=…,state=online,offset=…,lag=0}).
     */
    static int online(Properties replication) {
        int count = 0;
        for (String field : replication.stringPropertyNames()) {
            if (field.matches("slave\\d+")) {
                String replica = "," + replication.getProperty(field) + ",";
                int lag = replica.indexOf(",lag=");
                if (replica.contains(",state=online,") && lag >= 0 && Integer.parseInt(
                        replica.substring(lag + 5, replica.indexOf(',', lag + 1))) <= MAX_LAG_SECONDS) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Counts read over a window of time, and the most of them. */
    static final class Readings {

        private final long windowNanos;
        private final ArrayDeque<long[]> kept = new ArrayDeque<>();

        Readings(long windowNanos) {
            this.windowNanos = windowNanos;
        }

        /** Adds the count read at {@code nanos} and returns the most read within the window up to it. */
        int add(long nanos, int count) {
            while (!kept.isEmpty() && nanos - kept.peekFirst()[0] > windowNanos) {
                kept.pollFirst();
            }
            kept.addLast(new long[] {nanos, count});
            long most = 0;
            for (long[] reading : kept) {
                most = Math.max(most, reading[1]);
            }
            return (int) most;
        }
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
