package dev.distlock.test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Starts {@link RedisServer}s with a chosen binary, configuration file or extra options:
 *
 * <pre>{@code
 * RedisServer server = RedisServer.builder()
 *         .binary(RedisBinary.named(RedisBinary.VALKEY_8_0))
 *         .args("--maxmemory", "10mb")
 *         .start();
 * }</pre>
 *
 * <p>Every server binds {@code 127.0.0.1} on a free port, without persistence; its log is in its own directory.
 * Restarts reuse the same port, directory, configuration file and options.
 */
public final class RedisServerBuilder {

    private RedisBinary binary;
    private List<String> configLines;
    private final List<String> args = new ArrayList<>();
    private boolean clusterNode;

    RedisServerBuilder() {
    }

    /**
     * The server binary to run (default: {@link RedisBinary#installed()}).
     *
     * @param binary e.g. {@code RedisBinary.named(RedisBinary.REDIS_6_0)}
     * @return this builder
     */
    public RedisServerBuilder binary(RedisBinary binary) {
        this.binary = Objects.requireNonNull(binary, "binary");
        return this;
    }

    /**
     * Lines of a configuration file {@code redis.conf}, written into the server's directory at the first start and
     * passed as the first argument. The server may rewrite it (Sentinel does, and {@code CONFIG REWRITE}); restarts
     * read it again. Command-line options, also those of {@link #args}, win over it.
     *
     * @param lines e.g. {@code "sentinel monitor mymaster 127.0.0.1 6390 2"}
     * @return this builder
     */
    public RedisServerBuilder config(String... lines) {
        if (configLines == null) {
            configLines = new ArrayList<>();
        }
        configLines.addAll(Arrays.asList(lines));
        return this;
    }

    /**
     * Extra command-line options, appended after the harness's own ({@code --port}, {@code --bind}, {@code --save},
     * {@code --appendonly}, {@code --dir}, {@code --logfile}), so they win over those.
     *
     * @param args e.g. {@code "--sentinel"} or {@code "--maxmemory", "10mb"}
     * @return this builder
     */
    public RedisServerBuilder args(String... args) {
        this.args.addAll(Arrays.asList(args));
        return this;
    }

    /**
     * Makes the server a Redis Cluster node: {@code --cluster-enabled yes} with its {@code nodes.conf} in its own
     * directory (it survives restarts), on a port whose cluster bus port (port + 10000) is free too.
     *
     * @return this builder
     */
    public RedisServerBuilder clusterNode() {
        clusterNode = true;
        return this;
    }

    /**
     * Starts one server and waits (at most 10 s) until it answers PING.
     *
     * @return the running server; close it when done
     * @throws IllegalStateException if the binary is missing or the server does not come up (with its log tail)
     */
    public RedisServer start() {
        return RedisServer.start(commandLine(), clusterNode);
    }

    /**
     * Starts {@code count} servers in parallel and waits until all answer PING; if one fails, the others are stopped.
     *
     * @param count how many, at least 1
     * @return the running servers, in a fixed order
     * @throws IllegalStateException if one of them does not come up
     */
    public List<RedisServer> start(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("at least one server is needed, got " + count);
        }
        RedisCommandLine commandLine = commandLine();
        commandLine.binary().version(); // once, before the threads
        List<CompletableFuture<RedisServer>> starts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            starts.add(Background.supply("distlock-redis-start",
                    () -> RedisServer.start(commandLine, clusterNode)));
        }
        List<RedisServer> servers = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<RedisServer> start : starts) {
            try {
                servers.add(start.join()); // each start is bounded by its own timeouts
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            RedisServer.killAll(servers, failure);
            throw failure;
        }
        return List.copyOf(servers);
    }

    private RedisCommandLine commandLine() {
        List<String> all = new ArrayList<>();
        if (clusterNode) {
            all.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"));
        }
        all.addAll(args);
        return new RedisCommandLine(binary != null ? binary : RedisBinary.installed(), configLines, all);
    }
}
