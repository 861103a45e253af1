package dev.distlock.fault;

import dev.distlock.test.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The journal of who holds a semaphore or read-write lock in Redis: its hash's holder fields. */
final class PermitHolders {

    private PermitHolders() {
    }

    /** The holders the hash at {@code key} lists ({@code o:<token>}), live or not yet dropped. */
    static List<String> of(RedisServer server, String key) {
        List<String> holders = new ArrayList<>();
        for (Object field : (List<?>) server.command("HKEYS", key)) {
            String name = field instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : field.toString();
            if (name.startsWith("o:")) {
                holders.add(name);
            }
        }
        return holders;
    }
}
