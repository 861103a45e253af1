package dev.distlock.test.simulation;

import dev.distlock.core.DetachedLock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The oracle of mutual exclusion: the resources the locks protect, one per name. A holder enters with its fencing
 * token and writes before it leaves, if it still believes it holds; the resource refuses a token lower than the
 * highest it accepted. Readers of a read-write lock enter shared and do not write. A violation is a holder beside
 * another that both believe they hold one name at one instant (readers beside readers excepted), an exclusive hold's
 * fencing token that does not grow past every token entered before it, a reader's that does not grow past the
 * writers' before it, or a refused write from a holder that believed it held.
 */
final class FencedResource {

    /** The largest token entered per name, and the largest a writer (an exclusive hold) entered with. */
    private final Map<String, Long> highest = new HashMap<>();
    private final Map<String, Long> highestExclusive = new HashMap<>();
    private final Map<String, List<Inside>> inside = new HashMap<>();
    private final List<String> violations;

    FencedResource(List<String> violations) {
        this.violations = violations;
    }

    /** A hold as the oracle sees it: whether its holder believes it holds a name now, and its fencing token there. */
    interface Holder {

        boolean isHeld(String name);

        long fencingToken(String name);

        /** A non-blocking caller's hold. */
        static Holder of(DetachedLock hold) {
            return new Holder() {

                @Override
                public boolean isHeld(String name) {
                    return hold.isHeld();
                }

                @Override
                public long fencingToken(String name) {
                    return hold.fencingTokens().get(name);
                }
            };
        }
    }

    private record Inside(String client, boolean shared, Holder hold) {
    }

    /** {@code client} got {@code hold} on {@code names}; {@code shared}: a read, beside which other reads may be. */
    void enter(String client, List<String> names, boolean shared, Holder hold) {
        for (String name : names) {
            List<Inside> here = inside.computeIfAbsent(name, key -> new ArrayList<>());
            for (Inside other : here) {
                if ((!shared || !other.shared()) && other.hold().isHeld(name) && hold.isHeld(name)) {
                    violations.add("two holders of '" + name + "': " + other.client() + " and " + client
                            + (shared || other.shared() ? " (a reader beside a writer)" : ""));
                }
            }
            long fence = hold.fencingToken(name);
            Long before = (shared ? highestExclusive : highest).get(name);
            // a read granted before another read may enter after it: it is checked against the writers' only, and
            // only while held (a read whose process paused past its lease enters late, lost, and reads nothing)
            if ((!shared || hold.isHeld(name)) && before != null && fence <= before) {
                violations.add("fencing token of '" + name + "' did not grow: " + fence + " after " + before
                        + " (" + client + ")");
            }
            highest.merge(name, fence, Math::max);
            if (!shared) {
                highestExclusive.merge(name, fence, Math::max);
            }
            here.add(new Inside(client, shared, hold));
        }
    }

    /** {@code client} writes before leaving, if it holds exclusively and believes it still holds; then leaves. */
    void writeAndLeave(String client, List<String> names, boolean shared, Holder hold) {
        for (String name : names) {
            long fence = hold.fencingToken(name);
            if (!shared && hold.isHeld(name) && fence < highest.getOrDefault(name, 0L)) {
                violations.add("stale write to '" + name + "' by " + client + " with token " + fence
                        + ", which believed it held (highest " + highest.get(name) + ")");
            }
            List<Inside> here = inside.get(name);
            if (here != null) {
                here.removeIf(entered -> entered.hold() == hold);
            }
        }
    }
}
