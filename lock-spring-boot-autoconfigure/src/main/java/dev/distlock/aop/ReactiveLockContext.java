package dev.distlock.aop;

import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The {@link LockContext} of a {@code Mono}/{@code Flux} returned by a
 * {@link dev.distlock.annotation.DistributedLock @DistributedLock} method, read from the Reactor context
 * of the subscription that holds the lock:
 *
 * <pre>{@code
 * @DistributedLock(name = "'order:' + #id")
 * Mono<Void> pay(String id) {
 *     return ReactiveLockContext.current().flatMap(lock -> repository.save(id, lock.fencingToken()));
 * }
 * }</pre>
 *
 * <p>Needs reactor-core; the rest of distlock works without it.
 */
public final class ReactiveLockContext {

    private static final Object KEY = ReactiveLockContext.class;

    private ReactiveLockContext() {
    }

    /**
     * The lock of the innermost annotated {@code Mono}/{@code Flux} whose subscription this runs in; an
     * {@link IllegalStateException} signal when there is none.
     */
    public static Mono<LockContext> current() {
        return Mono.deferContextual(context -> {
            Entry entry = context.getOrDefault(KEY, null);
            return entry != null ? Mono.just(entry.held().view())
                    : Mono.error(new IllegalStateException("ReactiveLockContext.current() was subscribed outside "
                            + "the Mono/Flux of a @DistributedLock method"));
        });
    }

    /**
     * The hold of {@code key} from {@code registry} that an enclosing subscription still has, or
     * {@code null} (then the nested call takes the lock itself).
     */
    static CallHold enclosing(ContextView context, Object registry, String key) {
        for (Entry entry = context.getOrDefault(KEY, null); entry != null; entry = entry.outer()) {
            if (entry.registry() == registry && entry.held().key().equals(key) && entry.held().isHeld()) {
                return entry.held();
            }
        }
        return null;
    }

    /** The holds of the annotated subscriptions that {@code context} runs in, innermost first. */
    static List<CallHold> holds(ContextView context) {
        List<CallHold> holds = new ArrayList<>(2);
        for (Entry entry = context.getOrDefault(KEY, null); entry != null; entry = entry.outer()) {
            holds.add(entry.held());
        }
        return holds;
    }

    /** {@code context} with {@code held} as the innermost hold. */
    static Context with(Context context, Object registry, CallHold held) {
        return context.put(KEY, new Entry(held, registry, context.getOrDefault(KEY, null)));
    }

    /** One hold of the chain of enclosing annotated subscriptions. */
    private record Entry(CallHold held, Object registry, Entry outer) {
    }
}
