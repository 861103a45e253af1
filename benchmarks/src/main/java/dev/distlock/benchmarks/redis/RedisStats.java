package dev.distlock.benchmarks.redis;

import dev.distlock.test.RespClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@link RedisCounters} from {@code INFO cpu commandstats} (and {@code CLUSTER INFO} on cluster nodes) on
 * connections of its own, summed over the servers it watches: one server, a cluster's primaries or a Redlock's
 * nodes. The harness's {@code INFO} and {@code CLUSTER} calls are not counted; no contender sends them while
 * locking.
 */
public final class RedisStats implements AutoCloseable {

    private static final String COMMAND_PREFIX = "cmdstat_";
    private static final List<String> OWN_COMMANDS = List.of("info", "cluster|info", "cluster");
    private static final String BUS_PUBLISHES = "cluster_stats_messages_publish_sent:";

    private final List<RespClient> clients;
    private final boolean cluster;

    /** Watches one server. */
    public RedisStats(RespClient client) {
        this(List.of(client), false);
    }

    /**
     * Watches several servers.
     *
     * @param clients one connection per server, closed with this
     * @param cluster whether they are cluster nodes, whose bus messages count too
     */
    public RedisStats(List<RespClient> clients, boolean cluster) {
        this.clients = List.copyOf(clients);
        this.cluster = cluster;
    }

    /** The counters now, summed over the servers. */
    public RedisCounters read() {
        RedisCounters sum = RedisCounters.none();
        for (RespClient client : clients) {
            String info = (String) client.command("INFO", "cpu", "commandstats");
            String clusterInfo = cluster ? (String) client.command("CLUSTER", "INFO") : "";
            sum = sum.plus(parse(info + "\n" + clusterInfo));
        }
        return sum;
    }

    /** The first server's {@code redis_version}. */
    public String serverVersion() {
        String info = (String) clients.get(0).command("INFO", "server");
        return info.lines().filter(line -> line.startsWith("redis_version:"))
                .map(line -> line.substring("redis_version:".length()).trim())
                .findFirst().orElse("unknown");
    }

    /** Deletes every key on every server, so that each measurement starts empty. */
    public void flushAll() {
        clients.forEach(client -> client.command("FLUSHALL"));
    }

    /**
     * Parses lines such as {@code cmdstat_evalsha:calls=12,usec=80,...}, {@code used_cpu_sys:0.12} and
     * {@code cluster_stats_messages_publish_sent:5}.
     */
    static RedisCounters parse(String info) {
        Map<String, Long> calls = new HashMap<>();
        double cpu = 0;
        long busPublishes = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(COMMAND_PREFIX)) {
                int colon = line.indexOf(':');
                String command = line.substring(COMMAND_PREFIX.length(), colon);
                if (!OWN_COMMANDS.contains(command)) {
                    calls.put(command, Long.parseLong(field(line.substring(colon + 1), "calls")));
                }
            } else if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                cpu += Double.parseDouble(value(line));
            } else if (line.startsWith(BUS_PUBLISHES)) {
                busPublishes = Long.parseLong(value(line));
            }
        }
        return new RedisCounters(calls, cpu, busPublishes);
    }

    private static String value(String line) {
        return line.substring(line.indexOf(':') + 1).trim();
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
        clients.forEach(RespClient::close);
    }
}
