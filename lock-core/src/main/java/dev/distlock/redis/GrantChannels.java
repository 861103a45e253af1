package dev.distlock.redis;

import dev.distlock.core.support.LockStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Hand-off notices over one shared pub/sub connection. This process listens to a lock's own channel only
 * while it has a waiter for that lock, and keeps listening for a short linger after the last waiter left so
 * that a busy lock does not subscribe and unsubscribe on every acquisition. A notice reads
 * {@code <token> <fencing token>}: the waiter whose token it is holds the lock now.
 */
final class GrantChannels implements MessageListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GrantChannels.class);

    private final RedisMessageListenerContainer container;
    private final boolean ownsContainer;
    private final long lingerMillis;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor unsubscriber;

    GrantChannels(RedisMessageListenerContainer container, boolean ownsContainer, Duration linger) {
        this.container = container;
        this.ownsContainer = ownsContainer;
        this.lingerMillis = linger.toMillis();
        this.unsubscriber = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "distlock-unsubscribe");
            thread.setDaemon(true);
            return thread;
        });
        this.unsubscriber.setRemoveOnCancelPolicy(true);
    }

    /** Whether {@code channelName} is subscribed now, so {@link #subscribe} costs no Redis call. */
    boolean listening(String channelName) {
        Channel channel = channels.get(channelName);
        return channel != null && channel.subscribed;
    }

    /** Calls {@code listener} for every notice on {@code channelName} until the subscription is closed. */
    LockStore.Subscription subscribe(String channelName, LockStore.GrantListener listener) {
        while (true) {
            Channel channel = channels.computeIfAbsent(channelName, Channel::new);
            synchronized (channel) {
                if (channel.retired) {
                    continue;
                }
                channel.listeners.add(listener);
                channel.cancelUnsubscribe();
                if (!channel.subscribed) {
                    try {
                        container.addMessageListener(this, channel.topic);
                        channel.subscribed = true;
                    } catch (RuntimeException ex) {
                        // waiters still poll; the next waiter tries to subscribe again
                        log.debug("Could not subscribe to {}; waiters poll instead", channelName, ex);
                    }
                }
                return () -> leave(channel, listener);
            }
        }
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        Channel channel = channels.get(new String(message.getChannel(), StandardCharsets.UTF_8));
        String grant = new String(message.getBody(), StandardCharsets.UTF_8);
        int space = grant.indexOf(' ');
        if (channel == null || space < 0) {
            return;
        }
        String token = grant.substring(0, space);
        long fencingToken = Long.parseLong(grant.substring(space + 1));
        channel.listeners.forEach(listener -> listener.granted(token, fencingToken));
    }

    /** Number of channels listened to now (for tests). */
    int subscribedChannels() {
        return (int) channels.values().stream().filter(channel -> channel.subscribed).count();
    }

    @Override
    public void close() {
        unsubscriber.shutdownNow();
        if (ownsContainer) {
            container.stop();
            try {
                container.destroy();
            } catch (Exception ex) {
                log.debug("Closing the pub/sub container failed", ex);
            }
        } else {
            channels.values().forEach(this::unsubscribe);
        }
    }

    private void leave(Channel channel, LockStore.GrantListener listener) {
        synchronized (channel) {
            channel.listeners.remove(listener);
            if (channel.listeners.isEmpty() && !unsubscriber.isShutdown()) {
                channel.unsubscribe = unsubscriber.schedule(() -> retireIfIdle(channel), lingerMillis,
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    private void retireIfIdle(Channel channel) {
        synchronized (channel) {
            if (!channel.listeners.isEmpty() || channel.retired) {
                return;
            }
            channel.retired = true;
            channels.remove(channel.topic.getTopic(), channel);
            unsubscribe(channel);
        }
    }

    private void unsubscribe(Channel channel) {
        if (channel.subscribed) {
            channel.subscribed = false;
            try {
                container.removeMessageListener(this, channel.topic);
            } catch (RuntimeException ex) {
                log.debug("Could not unsubscribe from {}", channel.topic.getTopic(), ex);
            }
        }
    }

    /** One channel and this process's waiters on it; guarded by its own monitor. */
    private static final class Channel {

        final ChannelTopic topic;
        final Set<LockStore.GrantListener> listeners = ConcurrentHashMap.newKeySet();
        volatile boolean subscribed;
        boolean retired;
        ScheduledFuture<?> unsubscribe;

        Channel(String name) {
            this.topic = new ChannelTopic(name);
        }

        void cancelUnsubscribe() {
            if (unsubscribe != null) {
                unsubscribe.cancel(false);
                unsubscribe = null;
            }
        }
    }
}
