package dev.distlock.core.engine.presence;

import dev.distlock.core.LockHolder;
import dev.distlock.core.LockWaiter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Names the processes in a lock's queue ({@link LockWaiter}) from their queued tokens, as their registries announced
 * themselves. A queue's entries are read on an operator's inspection and on every wait that runs out (to explain
 * it), when queues are long: so each process's announcement is read once per inspection however many of its tokens
 * wait, and once read it is kept. That is safe because a registry announces one identity all its life, and a queued
 * entry is live only while its process keeps trying. Up to {@value #REMEMBERED} are kept, then all are forgotten at
 * once (the next inspections read them again). Announcements not found are not kept: a waiter announces itself a
 * moment after its first entry.
 */
public final class QueueNames {

    private static final int REMEMBERED = 1024;

    private final Function<String, LockHolder> announced;
    private final Map<String, LockHolder> known = new ConcurrentHashMap<>();

    /**
     * @param announced what the registry with an instance id announced, read from the store (or this registry's own
     *        identity); {@code null} if nothing
     */
    QueueNames(Function<String, LockHolder> announced) {
        this.announced = announced;
    }

    /** The queue's processes, in the order of {@code waiterTokens}. */
    List<LockWaiter> name(List<String> waiterTokens) {
        if (waiterTokens.isEmpty()) {
            return List.of();
        }
        Map<String, LockHolder> readNow = new HashMap<>();
        List<LockWaiter> queue = new ArrayList<>(waiterTokens.size());
        for (String token : waiterTokens) {
            String instance = HoldTokens.instanceOf(token);
            LockHolder process = known.get(instance);
            if (process == null) {
                process = readNow.containsKey(instance) ? readNow.get(instance) : read(instance);
                readNow.put(instance, process);
            }
            queue.add(new LockWaiter(instance, process));
        }
        return queue;
    }

    private LockHolder read(String instance) {
        LockHolder process = announced.apply(instance);
        if (process != null) {
            if (known.size() >= REMEMBERED) {
                known.clear();
            }
            known.put(instance, process);
        }
        return process;
    }
}
