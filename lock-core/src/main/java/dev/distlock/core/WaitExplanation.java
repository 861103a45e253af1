package dev.distlock.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a wait for a lock ran out, as the backend tells it when it does: who held each name then (application, host,
 * pid, since when) and how many waited. Read with {@link LockRegistry#inspect} once, and only on a timeout; a name
 * that could not be read is left out, so the explanation never hides the timeout itself.
 */
final class WaitExplanation {

    private WaitExplanation() {
    }

    /** What {@code registry} says of {@code names} now: the ones held, as {@link LockInfo}s; empty if none. */
    static List<LockInfo> read(LockRegistry registry, List<String> names) {
        List<LockInfo> held = new ArrayList<>();
        for (String name : names) {
            try {
                LockInfo info = registry.inspect(name);
                if (info.held()) {
                    held.add(info);
                }
            } catch (RuntimeException unreadable) {
                // the timeout is the answer; who held the name is only a help to read it
            }
        }
        return List.copyOf(held);
    }

    /**
     * The explanation's sentence, e.g. {@code "held by inventory-service on host-2 (pid 4242, registry 7f3a) since
     * 2026-11-28T12:00:00.123Z, 3 waiting"}; for a lock on several names, one such part per name held, each after
     * the name; empty if none.
     */
    static String describe(String lockName, List<LockInfo> held) {
        List<String> parts = new ArrayList<>();
        for (LockInfo info : held) {
            StringBuilder part = new StringBuilder(info.name().equals(lockName) ? "" : "'" + info.name() + "' ");
            LockHolder holder = info.holder();
            if (holder == null) {
                part.append("held by an owner that announced nothing (another tool, or gone a while)");
            } else {
                part.append("held by ").append(holder.application() != null ? holder.application() + " on " : "")
                        .append(holder.host()).append(" (pid ").append(holder.pid()).append(", registry ")
                        .append(holder.instance()).append(')');
            }
            if (info.heldSince() != null) {
                part.append(" since ").append(info.heldSince());
            }
            part.append(", ").append(info.waiting()).append(" waiting");
            parts.add(part.toString());
        }
        return String.join("; ", parts);
    }
}
