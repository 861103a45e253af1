package dev.distlock.test.simulation;

import dev.distlock.core.DetachedLock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The oracle of mutual exclusion: the resources the locks protect, one per name. A holder enters with its fencing
 * token and writes before it leaves, if it still believes it holds; the resource refuses a token lower than the
 * highest it accepted. A violation is two holders that both believe they hold one name at one instant, a fencing
 * token that does not grow, or a refused write from a holder that believed it held.
 */
final class FencedResource {

    private final Map<String, Long> highest = new HashMap<>();
    private final Map<String, Inside> inside = new HashMap<>();
    private final List<String> violations;

    FencedResource(List<String> violations) {
        this.violations = violations;
    }

    private record Inside(String client, DetachedLock hold) {
    }

    /** {@code client} got {@code hold} on {@code names}. */
    void enter(String client, List<String> names, DetachedLock hold) {
        for (String name : names) {
            Inside other = inside.get(name);
            if (other != null && other.hold().isHeld() && hold.isHeld()) {
                violations.add("two holders of '" + name + "': " + other.client() + " and " + client);
            }
            long fence = hold.fencingTokens().get(name);
            Long before = highest.get(name);
            if (before != null && fence <= before) {
                violations.add("fencing token of '" + name + "' did not grow: " + fence + " after " + before
                        + " (" + client + ")");
            }
            highest.merge(name, fence, Math::max);
            inside.put(name, new Inside(client, hold));
        }
    }

    /** {@code client} writes before leaving, if it believes it still holds; then leaves. */
    void writeAndLeave(String client, List<String> names, DetachedLock hold) {
        boolean believesHeld = hold.isHeld();
        for (String name : names) {
            long fence = hold.fencingTokens().get(name);
            if (believesHeld && fence < highest.getOrDefault(name, 0L)) {
                violations.add("stale write to '" + name + "' by " + client + " with token " + fence
                        + ", which believed it held (highest " + highest.get(name) + ")");
            }
            Inside current = inside.get(name);
            if (current != null && current.hold() == hold) {
                inside.remove(name);
            }
        }
    }
}
