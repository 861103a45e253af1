package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.Poll;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore;
import dev.distlock.test.scripted.ScriptedLockStore.CommandTimeout;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.KeepAliveLockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What a ShedLock lock does when the store fails under it, forced with the scripted store. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistlockSimpleLockFaultsTest {

    private static final Duration LONG = Duration.ofMinutes(5);

    @RegisterExtension
    final CloseAfterEach closeAfterEach = new CloseAfterEach();

    private final ScriptedLockStore store = new ScriptedLockStore();
    private final DistlockLockProvider provider = new DistlockLockProvider(registry());
    private final DistlockLockProvider other = new DistlockLockProvider(registry());

    @Test
    void anExtendThatGotNoAnswerFailsNamingTheLockAndLeavesItUsable() {
        SimpleLock lock = lock(provider, "report", LONG).orElseThrow();
        store.next(Op.EXTEND, "report").fail(new CommandTimeout("Command timed out after 5 second(s)"));

        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("report").hasMessageContaining("timed out");

        lock.unlock();
        assertThat(lock(other, "report", LONG)).as("free").isPresent();
    }

    @Test
    void anUnlockWhoseReplyWasLostFailsOnceAndTheReleaseIsFinishedInTheBackground() {
        SimpleLock lock = lock(provider, "report", LONG).orElseThrow();
        store.next(Op.RELEASE, "report").loseReply(new CommandTimeout("Command timed out after 5 second(s)"));

        assertThatThrownBy(lock::unlock).isInstanceOf(LockBackendException.class).hasMessageContaining("report");

        assertThatThrownBy(lock::unlock).as("spent").isInstanceOf(IllegalStateException.class);
        Poll.until("lock 'report' free", Duration.ofSeconds(10),
                () -> lock(other, "report", LONG).isPresent() ? null : "still held");
    }

    @Test
    void aKeepAliveExtensionThatFailsLeavesTheLockForItsJobToUnlock() {
        ManualTimer timer = new ManualTimer();
        closeAfterEach.push(timer::shutdownNow);
        LockProvider keepAlive = new KeepAliveLockProvider(provider, timer);
        SimpleLock lock = keepAlive.lock(new LockConfiguration(Instant.now(), "report", Duration.ofSeconds(30),
                Duration.ZERO)).orElseThrow();
        store.next(Op.EXTEND, "report").fail(new CommandTimeout("Command timed out after 5 second(s)"));

        assertThatThrownBy(timer::runTask).isInstanceOf(LockBackendException.class);

        assertThatCode(lock::unlock).doesNotThrowAnyException();
        assertThat(lock(other, "report", LONG)).as("free").isPresent();
    }

    @Test
    void aShortWindowWhoseLeaseCouldNotBeCutIsGrantedAllTheSame() {
        store.next(Op.EXTEND, "report").fail(new CommandTimeout("Command timed out after 5 second(s)"));

        SimpleLock lock = lock(provider, "report", Duration.ofMillis(200)).orElseThrow();

        assertThat(lock(other, "report", LONG)).as("held").isEmpty();
        assertThatCode(lock::unlock).doesNotThrowAnyException();
    }

    private ScriptedLockRegistry registry() {
        ScriptedLockRegistry registry = ScriptedLockRegistry.on(store).build();
        closeAfterEach.push(registry);
        return registry;
    }

    private static java.util.Optional<SimpleLock> lock(LockProvider provider, String name, Duration atMost) {
        return provider.lock(new LockConfiguration(Instant.now(), name, atMost, Duration.ZERO));
    }
}
