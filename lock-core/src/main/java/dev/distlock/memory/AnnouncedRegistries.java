package dev.distlock.memory;

import dev.distlock.core.spi.Announcements;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The instances' announcements with their time to live, as Redis keeps them in expiring keys: the
 * {@link InMemoryLockStore}'s announcements, apart because they share nothing with locks but the store's clock.
 */
final class AnnouncedRegistries implements Announcements {

    private final Clock clock;
    private final Map<String, Announced> announcements = new HashMap<>();

    AnnouncedRegistries(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void announce(String instance, Map<String, String> description, long ttlMillis) {
        announcements.put(instance, new Announced(Map.copyOf(description), clock.millis() + ttlMillis));
    }

    /** The description of {@code instance} while its announcement lives, else empty. */
    @Override
    public synchronized Map<String, String> announcement(String instance) {
        Announced announced = announcements.get(instance);
        return announced != null && announced.expiresAt() > clock.millis() ? announced.description() : Map.of();
    }

    private record Announced(Map<String, String> description, long expiresAt) {
    }
}
