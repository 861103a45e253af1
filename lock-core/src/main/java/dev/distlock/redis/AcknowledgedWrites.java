package dev.distlock.redis;

import dev.distlock.core.spi.AcquireResult;
import java.util.List;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock's writes that replicas must acknowledge ({@link ReplicaCount}): each script pipelined with {@code WAIT}
 * on a connection of {@link PipelineConnections}, and a write too few replicas acknowledged turned into a
 * transient failure ({@link ReplicaAcks#shortfall}).
 */
final class AcknowledgedWrites implements AutoCloseable {

    private final ReplicaCount count;
    private final ScriptArguments arguments;
    private final PipelineConnections connections;

    AcknowledgedWrites(RedisConnectionFactory redis, ReplicaCount count, ScriptArguments arguments) {
        this.count = count;
        this.arguments = arguments;
        this.connections = new PipelineConnections(redis);
    }

    /**
     * Runs an acquiring script; a hold that too few replicas acknowledged is released again at once, on the same
     * connection (after a failover the shared one may lead to another server), and counts as a transient failure:
     * the registry tries again within the wait.
     */
    AcquireResult acquire(LockScripts.Script script, String name, String token, byte[][] keysAndArgs,
            int replicas) {
        return connections.apply(connection -> {
            LockScripts.Acknowledged<List<?>> reply = script.runAndWait(connection, replicas,
                    count.acks().timeoutMillis(), keysAndArgs);
            AcquireResult result = ScriptReplies.acquireResult(reply.reply());
            if (result.acquired() && reply.replicas() < replicas) {
                RuntimeException shortfall = shortfall(name, "acquired", reply.replicas(), replicas);
                try {
                    LockScripts.ABANDON.run(connection, arguments.abandon(name, token));
                } catch (RuntimeException undoFailed) {
                    shortfall.addSuppressed(undoFailed); // the registry's clean-up tries again
                }
                throw shortfall;
            }
            return result;
        });
    }

    /** Runs the script that sets a lease; a lease set that too few replicas acknowledged fails, as transient. */
    boolean setLease(String name, byte[][] keysAndArgs, int replicas) {
        return connections.apply(connection -> {
            LockScripts.Acknowledged<Long> reply = LockScripts.EXTEND.runAndWait(connection, replicas,
                    count.acks().timeoutMillis(), keysAndArgs);
            if (reply.reply() == 1L && reply.replicas() < replicas) {
                throw shortfall(name, "renewed", reply.replicas(), replicas);
            }
            return reply.reply() == 1L;
        });
    }

    private RuntimeException shortfall(String name, String what, int acknowledged, int required) {
        count.shortfall();
        return count.acks().shortfall(name, what, acknowledged, required);
    }

    @Override
    public void close() {
        connections.close();
    }
}
