package dev.distlock.engine;

import dev.distlock.test.scripted.ScriptedLockStore;
import io.lettuce.core.RedisCommandInterruptedException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.RedisSystemException;

/**
 * What the engine's fault tests share: registries ("processes") on one {@link ScriptedLockStore}, closed after
 * each test, a listener recording what they hear, and a bound on every test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class ScriptedStoreTest {

    final Registries registries = new Registries();
    final ScriptedLockStore store = registries.store;
    final Events events = new Events();

    /**
     * What a blocking Redis call throws when its thread is interrupted while it waits for the answer: Lettuce's
     * {@code RedisCommandInterruptedException}, in the exception Spring Data wraps it in (for
     * {@link dev.distlock.test.scripted.ScriptedCall#interruptedAs}).
     */
    static RuntimeException clientInterrupted(InterruptedException interrupt) {
        return new RedisSystemException("Redis command interrupted", new RedisCommandInterruptedException(interrupt));
    }

    @AfterEach
    void closeRegistries() {
        registries.close();
    }
}
