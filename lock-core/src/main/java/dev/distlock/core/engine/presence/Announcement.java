package dev.distlock.core.engine.presence;

import dev.distlock.core.LockHolder;
import java.net.InetAddress;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who a registry is, as it announces itself in the store so that {@link StoreLockRegistry#inspect} in any
 * process can name the holder of a lock: a few bytes per registry, nothing per acquisition.
 */
public final class Announcement {

    private Announcement() {
    }

    /** This process's description of a registry (the host name may take a DNS lookup: call it off hot paths). */
    static LockHolder of(String instance, String application, Instant startedAt) {
        return new LockHolder(instance, application, hostName(), ProcessHandle.current().pid(), startedAt);
    }

    static Map<String, String> toMap(LockHolder holder) {
        Map<String, String> map = new LinkedHashMap<>();
        if (holder.application() != null) {
            map.put("application", holder.application());
        }
        map.put("host", holder.host());
        map.put("pid", Long.toString(holder.pid()));
        map.put("started", holder.startedAt().toString());
        return map;
    }

    /** The holder an announcement describes, or {@code null} if there is none. */
    static LockHolder fromMap(String instance, Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            return null;
        }
        String pid = map.get("pid");
        String started = map.get("started");
        return new LockHolder(instance, map.get("application"), map.get("host"),
                pid != null ? Long.parseLong(pid) : -1, started != null ? Instant.parse(started) : null);
    }

    /** The host name, without waiting for DNS when the environment says it. */
    private static String hostName() {
        String fromEnvironment = System.getenv("HOSTNAME");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception unknown) {
            return "unknown";
        }
    }
}
