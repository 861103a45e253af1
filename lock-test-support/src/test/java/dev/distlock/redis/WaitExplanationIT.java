package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockTimeoutException;
import dev.distlock.test.Poll;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A wait that runs out names who held the lock then, from one read made only on the timeout, on a real Redis. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitExplanationIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final TestRegistries registries = new TestRegistries();

    @AfterEach
    void close() throws Exception {
        registries.close();
    }

    private RedisLockRegistry process(String application) {
        return registries.registry(redis.server(), Client.LETTUCE, Duration.ofSeconds(5),
                builder -> builder.applicationName(application));
    }

    /** {@code name} locked by a process of application "billing", which has announced itself to {@code waiter}. */
    private FencedLock heldByBilling(String name, RedisLockRegistry waiter) {
        FencedLock held = process("billing").obtain(name);
        held.lock();
        // the holder announces who it is in the background, right after its first lock
        Poll.until("the holder announced", Duration.ofSeconds(10),
                () -> waiter.inspect(name).holder() != null ? null : "no holder yet");
        return held;
    }

    @Test
    void aTimedOutWaitNamesTheHolderItsHostPidAndSinceWhenAndHowManyWait() {
        RedisLockRegistry waiter = process("reports");
        FencedLock held = heldByBilling("invoice:7", waiter);
        try {

            LockTimeoutException timeout = catchThrowableOfType(LockTimeoutException.class,
                    () -> waiter.executeLocked("invoice:7", Duration.ofMillis(200), () -> { }));

            List<LockInfo> held0 = timeout.getHeldWhenTimedOut();
            assertThat(held0).singleElement().satisfies(info -> {
                assertThat(info.name()).isEqualTo("invoice:7");
                assertThat(info.fencingToken()).isEqualTo(held.fencingToken());
                assertThat(info.holder().application()).isEqualTo("billing");
                assertThat(info.holder().pid()).isEqualTo(ProcessHandle.current().pid());
            });
            assertThat(timeout).hasMessageContaining("Lock 'invoice:7' could not be acquired within PT0.2S")
                    .hasMessageContaining("held by billing on " + held0.get(0).holder().host() + " (pid "
                            + ProcessHandle.current().pid() + ", registry " + held0.get(0).holder().instance()
                            + ") since " + held0.get(0).heldSince());
        } finally {
            held.unlock();
        }
    }

    @Test
    void forSeveralNamesItNamesEachOneHeldAndNotTheFreeOnes() {
        RedisLockRegistry waiter = process("reports");
        FencedLock held = heldByBilling("account:b", waiter);
        try {
            assertThatThrownBy(() -> waiter.executeLocked(List.of("account:b", "account:a"), Duration.ofMillis(200),
                    () -> { }))
                    .isInstanceOfSatisfying(LockTimeoutException.class, timeout -> assertThat(
                            timeout.getHeldWhenTimedOut()).extracting(LockInfo::name).containsExactly("account:b"))
                    .hasMessageContaining("'account:b' held by billing");
            assertThat(waiter.obtain("account:a").isLocked()).as("the free name given back").isFalse();
        } finally {
            held.unlock();
        }
    }
}
