package dev.distlock.redis;

import dev.distlock.core.spi.Announcements;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import java.util.Map;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What the Redis store offers beside a hold's life: reads of a lock, forced releases and the registries'
 * announcements. Rare calls, so each runs by {@code EVALSHA} on a Spring Data connection, on every Redis version.
 */
final class OperatorCalls implements LockReads, ForcedRelease, Announcements {

    private final RedisConnectionFactory redis;
    private final ScriptArguments arguments;
    private final ScriptReplies replies;

    OperatorCalls(RedisConnectionFactory redis, ScriptArguments arguments, ScriptReplies replies) {
        this.redis = redis;
        this.arguments = arguments;
        this.replies = replies;
    }

    @Override
    public boolean isLocked(String name) {
        return LockScripts.HELD.<Long>run(redis, arguments.lock(name)) == 1L;
    }

    @Override
    public LockSnapshot inspect(String name) {
        return replies.snapshot(LockScripts.INSPECT.run(redis, arguments.inspect(name)));
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return replies.released(LockScripts.FORCE_RELEASE.run(redis, arguments.forceRelease(name, fencingToken)));
    }

    @Override
    public void announce(String instance, Map<String, String> description, long ttlMillis) {
        LockScripts.ANNOUNCE.run(redis, arguments.announce(instance, description, ttlMillis));
    }

    @Override
    public Map<String, String> announcement(String instance) {
        return ScriptReplies.fields(LockScripts.ANNOUNCEMENT.run(redis, arguments.announcement(instance)));
    }
}
