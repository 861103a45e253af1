package dev.distlock.memory;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The instances' announcements with their time to live, as Redis keeps them in expiring keys. Separate because
 * they share nothing with locks but the store's clock and monitor: not thread-safe, every call is made under
 * the {@link InMemoryLockStore}'s lock.
 */
final class Announcements {

    private final Clock clock;
    private final Map<String, Announced> announcements = new HashMap<>();

    Announcements(Clock clock) {
        this.clock = clock;
    }

    void announce(String instance, Map<String, String> description, long ttlMillis) {
        announcements.put(instance, new Announced(Map.copyOf(description), clock.millis() + ttlMillis));
    }

    /** The description of {@code instance} while its announcement lives, else empty. */
    Map<String, String> announcement(String instance) {
        Announced announced = announcements.get(instance);
        return announced != null && announced.expiresAt() > clock.millis() ? announced.description() : Map.of();
    }

    private record Announced(Map<String, String> description, long expiresAt) {
    }
}
