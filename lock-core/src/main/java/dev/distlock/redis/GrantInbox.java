package dev.distlock.redis;

import dev.distlock.core.support.LockStore;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * This registry's own pub/sub channel, where releases announce that they handed a lock to one of its
 * waiters: {@code <token> <fencing token>}. Each waiter names the channel in its queue entry, so a notice
 * reaches only the process it is for. The channel is subscribed at the first wait and kept until close.
 */
final class GrantInbox implements MessageListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GrantInbox.class);

    private final RedisMessageListenerContainer container;
    private final boolean ownsContainer;
    private final ChannelTopic channel;
    private final ConcurrentHashMap<String, LongConsumer> waiters = new ConcurrentHashMap<>();
    private volatile boolean subscribed;

    GrantInbox(RedisMessageListenerContainer container, boolean ownsContainer, String channel) {
        this.container = container;
        this.ownsContainer = ownsContainer;
        this.channel = new ChannelTopic(channel);
    }

    /** The channel's name. */
    String channel() {
        return channel.getTopic();
    }

    /** Whether the channel is subscribed, so a waiter can queue at once. */
    boolean listening() {
        return subscribed;
    }

    /** Calls {@code onGrant} with the fencing token if a lock is handed to {@code token}, until closed. */
    LockStore.Subscription await(String token, LongConsumer onGrant) {
        waiters.put(token, onGrant);
        subscribeOnce();
        return () -> waiters.remove(token, onGrant);
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        String grant = new String(message.getBody(), StandardCharsets.UTF_8);
        int space = grant.indexOf(' ');
        LongConsumer waiter = space > 0 ? waiters.get(grant.substring(0, space)) : null;
        if (waiter != null) {
            waiter.accept(Long.parseLong(grant.substring(space + 1)));
        }
    }

    @Override
    public void close() {
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

    private void subscribeOnce() {
        if (subscribed) {
            return;
        }
        synchronized (this) {
            if (!subscribed) {
                try {
                    container.addMessageListener(this, channel);
                    subscribed = true;
                } catch (RuntimeException ex) {
                    // waiters still poll; the next waiter tries to subscribe again
                    log.debug("Could not subscribe to {}; waiters poll instead", channel.getTopic(), ex);
                }
            }
        }
    }
}
