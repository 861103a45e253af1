package dev.distlock.redis;

import dev.distlock.core.runtime.DaemonThreads;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * This registry's own pub/sub channel, where releases announce that they handed a lock to one of its
 * waiters: {@code <token> <fencing token> <server time ms> <claim lease ms>}. Each waiter names the channel
 * in its queue entry, so a notice reaches only the process it is for. The channel is subscribed at the
 * registry's first wait and kept until close. Subscribing runs on a thread of its own, so an interrupt of
 * a waiting caller can never break it.
 */
final class GrantInbox implements HandOffNotices, MessageListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GrantInbox.class);

    private final RedisMessageListenerContainer container;
    private final boolean ownsContainer;
    private final ChannelTopic channel;
    private final BooleanSupplier trusted;
    private final ConcurrentHashMap<String, Consumer<Grant>> waiters = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor subscriber;
    private CompletableFuture<Void> subscription;
    private volatile boolean subscribed;

    /**
     * @param trusted whether a notice alone makes the waiter the owner, asked at each notice: not while replicas must
     *        acknowledge, where the new owner confirms with Redis (and its replicas) first
     */
    GrantInbox(RedisMessageListenerContainer container, boolean ownsContainer, String channel,
            BooleanSupplier trusted) {
        this.container = container;
        this.trusted = trusted;
        this.ownsContainer = ownsContainer;
        this.channel = new ChannelTopic(channel);
        this.subscriber = DaemonThreads.pool("distlock-subscribe", 1, 10);
    }

    /** The channel's name. */
    String channel() {
        return channel.getTopic();
    }

    /** Whether the channel is subscribed. */
    @Override
    public boolean listening() {
        return subscribed;
    }

    /** Subscribes the channel unless it is subscribed or being subscribed; completes once it is. */
    @Override
    public synchronized CompletableFuture<Void> listen() {
        if (subscription == null || subscription.isCompletedExceptionally()) {
            subscription = CompletableFuture.runAsync(() -> container.addMessageListener(this, channel), subscriber);
            subscription.whenComplete((done, failure) -> {
                if (failure == null) {
                    subscribed = true;
                } else {
                    // waiters still poll; the next wait tries to subscribe again
                    log.debug("Could not subscribe to {}; waiters poll instead", channel.getTopic(), failure);
                }
            });
        }
        return subscription;
    }

    /** Calls {@code onGrant} if a lock is handed to {@code token}, until closed (tokens are unique across names). */
    @Override
    public Subscription await(String name, String token, Consumer<Grant> onGrant) {
        waiters.put(token, onGrant);
        return () -> waiters.remove(token, onGrant);
    }

    @Override
    public boolean trusted() {
        return trusted.getAsBoolean();
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        String[] notice = new String(message.getBody(), StandardCharsets.UTF_8).split(" ");
        Consumer<Grant> waiter = notice.length == 4 ? waiters.get(notice[0]) : null;
        if (waiter != null) {
            waiter.accept(new Grant(Long.parseLong(notice[1]), Long.parseLong(notice[2]), Long.parseLong(notice[3])));
        }
    }

    @Override
    public void close() {
        subscriber.shutdownNow();
        if (ownsContainer) {
            container.stop();
            try {
                container.destroy();
            } catch (Exception ex) {
                log.debug("Closing the pub/sub container failed", ex);
            }
        } else if (subscribed) {
            container.removeMessageListener(this, channel);
        }
    }
}
