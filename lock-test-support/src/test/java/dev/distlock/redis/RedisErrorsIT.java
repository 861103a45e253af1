package dev.distlock.redis;

import static dev.distlock.redis.RedisProbes.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockInfo;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.RedisServerExtension;
import dev.distlock.test.contract.RecordingListener;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What Redis refuses, and how it reaches the caller: with Redis's own words, as a loss where the key is not
 * a lock, and never as a failed release when only the hand-off notice was refused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisErrorsIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    @Test
    void aBackendErrorCarriesWhatRedisSaidBesideTheLockName() {
        redis.server().command("ACL", "SETUSER", "noscript", "on", ">secret", "~*", "&*", "+@all", "-evalsha", "-eval",
                "-fcall", "-function");
        FencedLock lock = registry(factory("noscript"), UnaryOperator.identity()).obtain("job");

        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("NOPERM");
    }

    /**
     * A wrong password is Redis's {@code WRONGPASS} to the connection's handshake, reported by the client as a failed
     * connection: it fails the call at once with Redis's words, rather than being tried again for the whole wait as a
     * connection that may come back.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aWrongPasswordFailsTheWaitAtOnceWithWhatRedisSaid(Client client) {
        redis.server().command("ACL", "SETUSER", "passworded", "on", ">secret", "~*", "&*", "+@all");
        FencedLock lock = registry(connections(client, "passworded", "not the password"), UnaryOperator.identity())
                .obtain("job");
        Duration wait = Duration.ofSeconds(3);

        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryLock(wait)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("WRONGPASS");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        System.out.println("[reliability] wrong password, " + client + ": tryLock(3 s) failed after " + took.toMillis()
                + " ms");
        assertThat(took).as("not retried through the wait").isLessThan(wait.dividedBy(2));
    }

    /**
     * A user without {@code +info} (the README's rights before replica acknowledgement was on by default): the
     * registry cannot read the replicas online, so it waits for none, and locking works, blocking and not.
     */
    @Test
    void aUserWhoMayNotReadInfoStillLocksWithoutWaitingForReplicas() throws Exception {
        redis.server().command(("ACL SETUSER noinfo on >secret ~distlock:* &distlock:granted:* +evalsha +eval +fcall "
                + "+function|load +exists +publish +subscribe +unsubscribe +ping +time +get +set +del +pexpire "
                + "+pttl +type +lpop +rpush +lrem +hget +hset +hdel +hgetall").split(" "));
        ListAppender<ILoggingEvent> log = capture(ReplicaCount.class);
        RedisLockRegistry registry = registry(factory("noinfo"), UnaryOperator.identity());
        FencedLock lock = registry.obtain("job");

        lock.lock();
        lock.unlock();
        registry.obtain("async").lockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("cannot read INFO replication", "NOPERM", "+info");
    }

    /**
     * The ACL the README gives a distlock user: locking, waiting, hand-offs heard at once and asking who holds
     * a lock all work.
     */
    @Test
    void aUserWithJustTheDocumentedRightsLocksWaitsAndHearsHandOffs() throws Exception {
        redis.server().command(("ACL SETUSER locks on >secret ~distlock:* &distlock:granted:* +evalsha +eval +fcall "
                + "+function|load +exists +publish +subscribe +unsubscribe +ping +time +get +set +del +pexpire "
                + "+pttl +type +lpop +rpush +lrem +lrange +lindex +hget +hset +hdel +hexists +hgetall +info +wait")
                .split(" "));
        FencedLock holder = registry(factory("locks"), UnaryOperator.identity()).obtain("job");
        // polls every minute: only a notice can wake it in time
        RedisLockRegistry waiterRegistry = registry(factory("locks"), b -> b.maxPollInterval(Duration.ofMinutes(1)));
        FencedLock waiter = waiterRegistry.obtain("job");
        holder.lock();
        assertThat(holder.isLocked()).isTrue();
        assertThat(waiter.tryLock(Duration.ofMillis(50))).isFalse(); // subscribes the waiter's channel
        RedisProbes.awaitUntil(() -> !((java.util.List<?>) redis.server().command("PUBSUB", "CHANNELS", "*")).isEmpty());
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndUnlock(waiter));
        RedisProbes.awaitUntil(() -> Long.valueOf(1).equals(redis.server().command("LLEN", "distlock:{job}:queue")));

        RedisProbes.awaitUntil(() -> waiterRegistry.inspect("job").holder() != null);
        assertThat(waiterRegistry.inspect("job").waiting()).isOne();
        assertThat(waiterRegistry.inspect("job").queue()).singleElement()
                .satisfies(queued -> assertThat(queued.instance()).isEqualTo(waiterRegistry.identity().instance()));
        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        holder.lock();
        holder.extend(Duration.ofSeconds(60));
        assertThat(holder.remainingLease()).isPositive();
        holder.unlock();

        LeasedSemaphore permits = waiterRegistry.semaphore("permits", 1);
        DetachedLock permit = permits.tryAcquire(Duration.ZERO);
        CompletableFuture<DetachedLock> next = permits.tryAcquireAsync(PATIENCE).toCompletableFuture();
        RedisProbes.awaitUntil(() -> Long.valueOf(1).equals(redis.server().command("LLEN",
                "distlock:{permits}:queue")));
        permit.extend(Duration.ofSeconds(60));
        assertThat(permit.remainingLease()).isPositive();
        permit.unlock();
        next.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).unlock();
    }

    /** The ACL the README gave before inspections listed the queue: everything works, the queue is only counted. */
    @Test
    void aUserWhoMayNotListTheQueueInspectsTheLockWithItsWaitersCountedAndIsToldOnce() throws Exception {
        redis.server().command(("ACL SETUSER nolrange on >secret ~distlock:* &distlock:granted:* +evalsha +eval "
                + "+fcall +function|load +exists +publish +subscribe +unsubscribe +ping +time +get +set +del "
                + "+pexpire +pttl +type +lpop +rpush +lrem +hget +hset +hdel +hgetall +info +wait").split(" "));
        ListAppender<ILoggingEvent> log = capture(RedisLockStore.class);
        RedisLockRegistry holderRegistry = registry(factory("nolrange"), UnaryOperator.identity());
        RedisLockRegistry waiterRegistry = registry(factory("nolrange"), UnaryOperator.identity());
        FencedLock holder = holderRegistry.obtain("job");
        holder.lock();
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndUnlock(
                waiterRegistry.obtain("job")));
        RedisProbes.awaitUntil(() -> Long.valueOf(1).equals(redis.server().command("LLEN", "distlock:{job}:queue")));

        for (int read = 0; read < 2; read++) {
            LockInfo info = holderRegistry.inspect("job");
            assertThat(info.holder().instance()).isEqualTo(holderRegistry.identity().instance());
            assertThat(info.waiting()).isOne();
            assertThat(info.queue()).isEmpty();
        }
        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).singleElement()
                .satisfies(event -> assertThat(event.getFormattedMessage()).contains("list a lock's queue")
                        .contains("+lrange"));
    }

    @Test
    void aRefusedHandOffNoticeNeitherFailsNorUndoesTheReleaseAndIsReportedOnce() throws Exception {
        // Redis 7's default for new users: no channel at all
        redis.server().command("ACL", "SETUSER", "nochannel", "on", ">secret", "~*", "resetchannels", "+@all");
        ListAppender<ILoggingEvent> log = capture(RedisLockStore.class);
        RedisLockRegistry holderProcess = registry(factory("nochannel"), UnaryOperator.identity());
        RedisLockRegistry waiterProcess = registry(factory("nochannel"), b -> b.maxPollInterval(Duration.ofMillis(100)));
        FencedLock holder = holderProcess.obtain("job");
        FencedLock waiter = waiterProcess.obtain("job");

        for (int round = 0; round < 3; round++) {
            holder.lock();
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndUnlock(waiter));
            RedisProbes.awaitUntil(() -> Long.valueOf(1).equals(redis.server().command("LLEN", "distlock:{job}:queue")));
            holder.unlock(); // hands over; the PUBLISH is refused

            assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).as("found at its next poll").isTrue();
        }
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).singleElement()
                .satisfies(event -> assertThat(event.getFormattedMessage()).contains("publish to the channel")
                        .contains("distlock:granted:*"));
    }

    @Test
    void aLockKeyOfAnotherTypeFailsTheAcquireWithWhatItHolds() {
        redis.server().command("HSET", "distlock:{job}", "field", "value");
        FencedLock lock = registry(factory(null), UnaryOperator.identity()).obtain("job");

        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("WRONGTYPE").hasMessageContaining("holds a hash");
    }

    @Test
    void aHeldKeyReplacedByAnotherTypeIsALossNotARenewalFailure() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock lock = registry(factory(null), b -> b.listener(listener))
                .obtain("job", Lease.renewed(Duration.ofMillis(600)));
        lock.lock();

        redis.server().command("DEL", "distlock:{job}");
        redis.server().command("HSET", "distlock:{job}", "field", "value");

        assertThat(listener.awaitLoss(PATIENCE)).isTrue();
        assertThat(listener.events("renewalFailed")).isEmpty();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat((String) redis.server().command("TYPE", "distlock:{job}")).isEqualTo("hash");
    }

    private static boolean lockAndUnlock(FencedLock lock) {
        try {
            if (!lock.tryLock(PATIENCE)) {
                return false;
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        lock.unlock();
        return true;
    }

    /** A started connection factory of {@code client} logging in as {@code user} with {@code password}. */
    private RedisConnectionFactory connections(Client client, String user, String password) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.server().host(), redis.server().port());
        server.setUsername(user);
        server.setPassword(password);
        Duration timeout = Duration.ofSeconds(5);
        if (client == Client.LETTUCE) {
            LettuceConnectionFactory factory = new LettuceConnectionFactory(server,
                    LettuceClientConfiguration.builder().commandTimeout(timeout).build());
            factory.afterPropertiesSet();
            factory.start();
            closeables.push(factory::destroy);
            return factory;
        }
        JedisConnectionFactory factory = new JedisConnectionFactory(server,
                JedisClientConfiguration.builder().connectTimeout(timeout).readTimeout(timeout).usePooling().build());
        factory.afterPropertiesSet();
        factory.start();
        closeables.push(factory::destroy);
        return factory;
    }

    private LettuceConnectionFactory factory(String user) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.server().host(), redis.server().port());
        if (user != null) {
            server.setUsername(user);
            server.setPassword("secret");
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
        factory.afterPropertiesSet();
        factory.start();
        closeables.push(factory::destroy);
        return factory;
    }

    private RedisLockRegistry registry(RedisConnectionFactory factory, UnaryOperator<RedisLockRegistry.Builder> settings) {
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(factory)).build();
        closeables.push(registry);
        return registry;
    }

    private ListAppender<ILoggingEvent> capture(Class<?> source) {
        Logger logger = (Logger) LoggerFactory.getLogger(source);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        closeables.push(() -> logger.detachAppender(appender));
        return appender;
    }
}
