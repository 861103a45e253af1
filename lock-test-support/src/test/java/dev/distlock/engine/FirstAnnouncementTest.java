package dev.distlock.engine;

import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.spi.Announcements;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.test.ForwardingLockStore;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A registry announces who it is from its first hold on, and reports that hold only once the announcement was
 * answered: another process that inspects the lock right after never finds it held by nobody it can name.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FirstAnnouncementTest {

    private final InMemoryLockStore memory = new InMemoryLockStore();
    private final CountDownLatch announcing = new CountDownLatch(1);
    private final CountDownLatch letAnnounce = new CountDownLatch(1);
    private final ScriptedLockRegistry first = ScriptedLockRegistry.on(new SlowAnnouncements(memory)).build();
    private final ScriptedLockRegistry other = ScriptedLockRegistry.on(new SlowAnnouncements(memory)).build();

    @AfterEach
    void close() {
        letAnnounce.countDown();
        first.close();
        other.close();
    }

    @Test
    void aBlockingFirstLockReturnsOnceTheRegistryIsAnnounced() throws Exception {
        FencedLock lock = first.obtain("job");
        Background<Boolean> locking = new Background<>("first-lock", lock::tryLock);

        assertThat(announcing.await(10, TimeUnit.SECONDS)).as("announcing").isTrue();
        awaitUntil(() -> locking.thread().getState() == Thread.State.WAITING || locking.isDone());
        assertThat(memory.isLocked("job")).as("taken in the store").isTrue();
        assertThat(locking.isDone()).as("the call returned before the announcement was answered").isFalse();

        letAnnounce.countDown();
        assertThat(locking.get()).isTrue();
        assertThat(other.inspect("job").holder()).as("the holder, as another process sees it").isNotNull()
                .satisfies(holder -> assertThat(holder.instance()).isEqualTo(first.identity().instance()));
    }

    @Test
    void aNonBlockingFirstLockCompletesOnceTheRegistryIsAnnounced() throws Exception {
        CompletableFuture<DetachedLock> locking = first.obtain("job").tryLockAsync(Duration.ZERO)
                .toCompletableFuture();

        assertThat(announcing.await(10, TimeUnit.SECONDS)).as("announcing").isTrue();
        awaitUntil(() -> memory.isLocked("job"));
        assertThat(locking).as("completed before the announcement was answered").isNotDone();

        letAnnounce.countDown();
        DetachedLock held = locking.get(10, TimeUnit.SECONDS);
        assertThat(other.inspect("job").holder()).isNotNull();
        held.unlock();
    }

    /** The in-memory store, shared by both registries, whose announcements wait for the test to let them go. */
    private final class SlowAnnouncements extends ForwardingLockStore {

        SlowAnnouncements(InMemoryLockStore store) {
            super(store);
        }

        /** The store's announcements, each of which waits for the test to let it go. */
        @Override
        public StoreCapabilities capabilities() {
            Announcements announcements = super.capabilities().announcements().orElseThrow();
            return super.capabilities().toBuilder().announcements(new Announcements() {
                @Override
                public void announce(String instance, Map<String, String> description, long ttlMillis) {
                    announcing.countDown();
                    try {
                        letAnnounce.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException interrupt) {
                        Thread.currentThread().interrupt();
                    }
                    announcements.announce(instance, description, ttlMillis);
                }

                @Override
                public Map<String, String> announcement(String instance) {
                    return announcements.announcement(instance);
                }
            }).build();
        }

        @Override
        public void close() {
            // shared: the test's store outlives the registries
        }
    }
}
