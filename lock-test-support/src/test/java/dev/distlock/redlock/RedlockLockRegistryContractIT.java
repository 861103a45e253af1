package dev.distlock.redlock;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import dev.distlock.test.contract.LockRegistryContract;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract (without the queue cases: Redlock waiters poll) on three independent redis-servers. Each
 * registry has its own connection factories, so registries stand for separate processes; "from outside"
 * means on every server.
 */
class RedlockLockRegistryContractIT extends LockRegistryContract {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(3);

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        return RedlockConnections.registry(redis.servers(), this::closeAfterTest)
                .listener(listener).maxPollInterval(maxPollInterval).build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        onEveryServer("DEL", ((RedlockLockRegistry) registry).keyOf(name));
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        onEveryServer("SET", ((RedlockLockRegistry) registry).keyOf(name), value);
    }

    /**
     * A semaphore or a read-write lock would need a majority's claims counted alike on every server: Redlock offers
     * neither, and says so.
     */
    @Test
    void aSemaphoreOrReadWriteLockIsRefusedAtOnceNamingTheStore() throws Exception {
        LockRegistry registry = registry();

        assertThatThrownBy(() -> registry.semaphore("permits", 3)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Semaphore 'permits'")
                .hasMessageContaining("RedlockLockStore offers no semaphores with leased permits");
        assertThatThrownBy(() -> registry.readWriteLock("shared")).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Read-write lock 'shared'").hasMessageContaining("nor read-write locks");
    }

    private static void onEveryServer(String... command) {
        List<RedisServer> servers = redis.servers();
        servers.forEach(server -> server.command(command));
    }
}
