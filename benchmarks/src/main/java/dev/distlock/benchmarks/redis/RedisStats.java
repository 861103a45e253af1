package dev.distlock.benchmarks.redis;

import dev.distlock.test.RespClient;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads {@link RedisCounters} from {@code INFO cpu commandstats} on a connection of its own. The harness's
 * {@code INFO} calls are not counted; no contender sends {@code INFO} while locking.
 */
public final class RedisStats implements AutoCloseable {

    private static final String COMMAND_PREFIX = "cmdstat_";
    private static final String OWN_COMMAND = "info";

    private final RespClient client;

    public RedisStats(RespClient client) {
        this.client = client;
    }

    /** The counters now. */
    public RedisCounters read() {
        return parse((String) client.command("INFO", "cpu", "commandstats"));
    }

    /** The server's {@code redis_version}. */
    public String serverVersion() {
        String info = (String) client.command("INFO", "server");
        return info.lines().filter(line -> line.startsWith("redis_version:"))
                .map(line -> line.substring("redis_version:".length()).trim())
                .findFirst().orElse("unknown");
    }

    /** Deletes every key, so that each measurement starts on an empty server. */
    public void flushAll() {
        client.command("FLUSHALL");
    }

    /**
     * Parses lines such as {@code cmdstat_evalsha:calls=12,usec=80,...} and {@code used_cpu_sys:0.12}.
     */
    static RedisCounters parse(String info) {
        Map<String, Long> calls = new HashMap<>();
        double cpu = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(COMMAND_PREFIX)) {
                int colon = line.indexOf(':');
                String command = line.substring(COMMAND_PREFIX.length(), colon);
                if (!command.equals(OWN_COMMAND)) {
                    calls.put(command, Long.parseLong(field(line.substring(colon + 1), "calls")));
                }
            } else if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                cpu += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return new RedisCounters(calls, cpu);
    }

    private static String field(String fields, String name) {
        for (String field : fields.split(",")) {
            if (field.startsWith(name + "=")) {
                return field.substring(name.length() + 1);
            }
        }
        throw new IllegalArgumentException("no " + name + " in " + fields);
    }

    @Override
    public void close() {
        client.close();
    }
}
