package dev.distlock.engine;

import dev.distlock.test.scripted.ScriptedLockStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

/**
 * What the engine's fault tests share: registries ("processes") on one {@link ScriptedLockStore}, closed after
 * each test, a listener recording what they hear, and a bound on every test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class ScriptedStoreTest {

    final Registries registries = new Registries();
    final ScriptedLockStore store = registries.store;
    final Events events = new Events();

    @AfterEach
    void closeRegistries() {
        registries.close();
    }
}
