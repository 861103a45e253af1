package dev.distlock.compat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.LockContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/** A counter in Redis that is read, incremented and written back: exact only under the lock. */
@Service
public class Counter {

    private final StringRedisTemplate redis;

    public Counter(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** Adds one to counter {@code name} without an atomic command; returns the hold's fencing token. */
    @DistributedLock(name = "'counter:' + #name", timeout = "30s")
    public long increment(String name) {
        String value = redis.opsForValue().get("compat:" + name);
        long next = (value == null ? 0 : Long.parseLong(value)) + 1;
        redis.opsForValue().set("compat:" + name, Long.toString(next));
        return LockContext.current().fencingToken();
    }

    /** The counter's value. */
    public long value(String name) {
        String value = redis.opsForValue().get("compat:" + name);
        return value == null ? 0 : Long.parseLong(value);
    }

    /** Holds the lock of {@code name} until {@code release} opens, telling {@code held} once it has it. */
    @DistributedLock(name = "'counter:' + #name", timeout = "30s")
    public void holdUntil(String name, CountDownLatch held, CountDownLatch release) throws InterruptedException {
        held.countDown();
        if (!release.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("nobody released the hold of " + name);
        }
    }
}
