package dev.distlock.redis;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.util.ClassUtils;

/**
 * Sends {@code WAIT replicas timeout} on a connection. Spring Data's generic {@code execute} expects a bulk
 * reply from Lettuce, so there the integer reply is asked for explicitly; Jedis answers it as it is.
 */
final class WaitCommand {

    private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            WaitCommand.class.getClassLoader());

    private WaitCommand() {
    }

    static void send(RedisConnection connection, byte[] replicas, byte[] timeoutMillis) {
        if (LETTUCE && Lettuce.send(connection, replicas, timeoutMillis)) {
            return;
        }
        connection.execute("WAIT", replicas, timeoutMillis);
    }

    /** Kept apart so that nothing of Lettuce is loaded where it is absent. */
    private static final class Lettuce {

        static boolean send(RedisConnection connection, byte[] replicas, byte[] timeoutMillis) {
            if (connection instanceof LettuceConnection lettuce) {
                lettuce.execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE), replicas, timeoutMillis);
                return true;
            }
            return false;
        }
    }
}
