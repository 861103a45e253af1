package dev.distlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockStore;
import dev.distlock.memory.InMemoryLockStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Redlock rules over three in-memory nodes that can be taken down, slowed or put on skewed clocks. */
class RedlockLockStoreTest {

    private static final long LEASE = 10_000;

    private final Node[] nodes = {new Node(0, Clock.systemUTC()), new Node(1, Clock.systemUTC()),
        new Node(2, Clock.systemUTC())};
    private RedlockLockStore redlock = redlock(Duration.ofMillis(500));

    @AfterEach
    void close() {
        redlock.close();
        Stream.of(nodes).forEach(node -> node.hold.countDown());
    }

    @Test
    void aMajorityIsEnough() {
        nodes[2].down = true;

        AcquireResult result = redlock.tryAcquire("job", "a", LEASE, true, 1000);

        assertThat(result.acquired()).isTrue();
        assertThat(redlock.tryAcquire("job", "b", LEASE, true, 1000).acquired()).isFalse();
        assertThat(redlock.remainingLeaseMillis("job", "a")).isPositive().isLessThanOrEqualTo(LEASE);
        assertThat(redlock.release("job", "a", result.fencingToken())).isTrue();
        assertThat(nodes[0].store.isLocked("job") || nodes[1].store.isLocked("job")).isFalse();
    }

    @Test
    void withoutAMajorityNothingIsLeftBehind() {
        nodes[1].down = true;
        nodes[2].down = true;

        assertThatThrownBy(() -> redlock.tryAcquire("job", "a", LEASE, true, 1000))
                .isInstanceOf(RedlockLockStore.QuorumException.class)
                .hasMessageContaining("1 of 3 nodes answered, 2 needed")
                .hasMessageContaining("first failure: node 1 is down")
                .satisfies(failure -> assertThat(redlock.classify((RuntimeException) failure).isTransient()).isTrue());
        assertThat(nodes[0].store.isLocked("job")).as("the one node that granted it released it again").isFalse();
    }

    @Test
    void aSlowNodeCountsAsNotAnswering() {
        redlock.close();
        redlock = redlock(Duration.ofMillis(50));
        nodes[2].holdCalls = true;

        assertThat(redlock.tryAcquire("job", "a", LEASE, true, 1000).acquired()).isTrue();
        assertThat(nodes[2].entered.getCount()).as("the slow node was asked").isZero();
    }

    @Test
    void anAcquisitionThatTookLongerThanItsValidityDoesNotCount() {
        nodes[1].delayMillis = 60;
        nodes[2].delayMillis = 60;

        AcquireResult result = redlock.tryAcquire("job", "a", 50, true, 1000);

        assertThat(result.acquired()).as("granted on every node, but 60ms into a 50ms lease").isFalse();
        assertThat(Stream.of(nodes).map(node -> node.store.isLocked("job"))).containsOnly(false);
    }

    @Test
    void tokensGrowAcrossHoldersWhateverTheNodesClocksSay() {
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10));
        nodes[0] = new Node(0, ahead);
        redlock.close();
        redlock = redlock(Duration.ofMillis(500));

        long first = redlock.tryAcquire("job", "a", LEASE, true, 1000).fencingToken();
        assertThat(first).as("the largest of the majority: the node ahead")
                .isGreaterThan(TimeUnit.MILLISECONDS.toMicros(Clock.systemUTC().millis()) + 60_000_000L);
        redlock.release("job", "a", first);
        nodes[0].down = true; // the next majority is nodes 1 and 2, whose clocks are ten minutes behind

        long second = redlock.tryAcquire("job", "b", LEASE, true, 1000).fencingToken();

        assertThat(second).isGreaterThan(first);
        assertThat(redlock.inspect("job").fencingToken()).isEqualTo(second);
    }

    @Test
    void aRepeatedTryReportsTheSameToken() {
        nodes[0] = new Node(0, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10)));
        redlock.close();
        redlock = redlock(Duration.ofMillis(500));

        long first = redlock.tryAcquire("job", "a", LEASE, true, 1000).fencingToken();
        nodes[0].down = true;

        assertThat(redlock.tryAcquire("job", "a", LEASE, true, 1000).fencingToken()).isEqualTo(first);
    }

    /** The hold's token, the largest of its majority, is every holding node's: a forced release finds it on each. */
    @Test
    void aForcedReleaseEndsTheHoldOnAMajorityByItsFencingToken() {
        nodes[0] = new Node(0, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10)));
        redlock.close();
        redlock = redlock(Duration.ofMillis(500));
        long fence = redlock.tryAcquire("job", "a", LEASE, true, 1000).fencingToken();
        nodes[2].down = true;

        assertThat(redlock.forceRelease("job", fence - 1)).as("a stale token").isFalse();
        assertThat(redlock.forceRelease("job", fence)).isTrue();

        assertThat(nodes[0].store.isLocked("job") || nodes[1].store.isLocked("job")).isFalse();
        assertThat(redlock.renew("job", "a", LEASE)).isFalse();
        assertThat(redlock.tryAcquire("job", "b", LEASE, true, 1000).fencingToken()).isGreaterThan(fence);
        nodes[1].down = true;
        assertThatThrownBy(() -> redlock.forceRelease("job", fence)).as("no majority answers")
                .isInstanceOf(RedlockLockStore.QuorumException.class);
    }

    private RedlockLockStore redlock(Duration nodeTimeout) {
        return new RedlockLockStore(Stream.of(nodes).map(Node::proxy).toList(), nodeTimeout);
    }

    /** An in-memory node that can be down (every call fails), slow (answers late) or hang until the test ends. */
    private static final class Node {

        final int index;
        final InMemoryLockStore store;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch hold = new CountDownLatch(1);
        volatile boolean down;
        volatile boolean holdCalls;
        volatile long delayMillis;

        Node(int index, Clock clock) {
            this.index = index;
            this.store = new InMemoryLockStore(clock, Duration.ofHours(1));
        }

        LockStore proxy() {
            return (LockStore) Proxy.newProxyInstance(LockStore.class.getClassLoader(), new Class<?>[] {LockStore.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("close") || method.getDeclaringClass() == Object.class) {
                            return method.invoke(store, args);
                        }
                        entered.countDown();
                        if (down) {
                            throw new IllegalStateException("node " + index + " is down");
                        }
                        if (holdCalls) {
                            hold.await(10, TimeUnit.SECONDS);
                        }
                        if (delayMillis > 0) {
                            Thread.sleep(delayMillis); // the node's answer is late by this much
                        }
                        try {
                            return method.invoke(store, args);
                        } catch (InvocationTargetException ex) {
                            throw ex.getCause();
                        }
                    });
        }
    }
}
