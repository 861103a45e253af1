package dev.distlock.core.spi;

import java.util.Map;

/**
 * Who the registries using a store are ({@link StoreCapabilities#announcements()}), so that an operator looking at
 * a lock is told which application, host and process holds it, not only its owner token.
 */
public interface Announcements {

    /**
     * Records who a registry is ({@code description}: application, host, pid, start) under its instance id for
     * {@code ttlMillis}. Called again before it expires while the registry is open.
     */
    void announce(String instance, Map<String, String> description, long ttlMillis);

    /** What registry {@code instance} last announced, or an empty map if nothing (any more). */
    Map<String, String> announcement(String instance);
}
