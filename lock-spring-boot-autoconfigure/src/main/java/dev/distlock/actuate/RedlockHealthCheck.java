package dev.distlock.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Checks the independent servers of a {@code RedlockLockRegistry}, each as
 * {@link DistlockHealthCheck#withoutHandOffs} does (reachable, version, scripting), all in parallel and each
 * within a timeout:
 * <ul>
 *   <li>UP while a majority of them can take locks, with a {@code warning} naming those that cannot;</li>
 *   <li>DOWN without a majority: every acquisition would fail.</li>
 * </ul>
 * Details: {@code quorum}, {@code serversUp}, and under {@code servers} each server's status and findings.
 *
 * @since 0.1.0
 */
public final class RedlockHealthCheck implements HealthCheck {

    private static final Executor THREAD_PER_CHECK = task -> {
        Thread thread = new Thread(task, "distlock-redlock-health");
        thread.setDaemon(true);
        thread.start();
    };

    private final Map<String, HealthCheck> servers;
    private final Duration timeout;

    private RedlockHealthCheck(Map<String, HealthCheck> servers, Duration timeout) {
        this.servers = servers;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Checks the servers behind {@code connectionFactories}.
     *
     * @param connectionFactories each server's name (e.g. {@code host:port}, never a password) and the
     *        connection factory the registry uses for it, in the registry's order
     * @param timeout how long one server may take to answer before it counts as down
     */
    public static RedlockHealthCheck of(Map<String, ? extends RedisConnectionFactory> connectionFactories,
            Duration timeout) {
        Map<String, HealthCheck> checks = new LinkedHashMap<>();
        connectionFactories.forEach((name, factory) ->
                checks.put(name, DistlockHealthCheck.withoutHandOffs(factory)));
        return new RedlockHealthCheck(Collections.unmodifiableMap(checks), timeout);
    }

    @Override
    public DistlockHealth check() {
        Map<String, CompletableFuture<DistlockHealth>> answers = new LinkedHashMap<>();
        servers.forEach((name, check) -> answers.put(name, CompletableFuture.supplyAsync(check::check,
                THREAD_PER_CHECK)));
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> byServer = new LinkedHashMap<>();
        List<String> down = new ArrayList<>();
        answers.forEach((name, answer) -> {
            DistlockHealth health = await(answer, deadline);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("status", health.up() ? "UP" : "DOWN");
            details.putAll(health.details());
            byServer.put(name, details);
            if (!health.up()) {
                down.add(name);
            }
        });
        int quorum = servers.size() / 2 + 1;
        int up = servers.size() - down.size();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("quorum", quorum);
        details.put("serversUp", up);
        if (up < quorum) {
            details.put("error", up + " of " + servers.size() + " Redlock servers can take locks, " + quorum
                    + " needed: every acquisition fails until a majority is back (down: " + String.join(", ", down)
                    + ")");
        } else if (!down.isEmpty()) {
            details.put("warning", down.size() + " of " + servers.size() + " Redlock servers cannot take locks ("
                    + String.join(", ", down) + "); locking goes on while a majority can");
        }
        details.put("servers", byServer);
        return new DistlockHealth(up >= quorum, details);
    }

    private DistlockHealth await(CompletableFuture<DistlockHealth> answer, long deadline) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException slow) {
            return new DistlockHealth(false, Map.of("error", "no answer within " + timeout));
        } catch (ExecutionException | RuntimeException failed) {
            return new DistlockHealth(false, Map.of("error", "could not be checked: "
                    + HealthFailures.rootCause(failed)));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new DistlockHealth(false, Map.of("error", "the check was interrupted"));
        }
    }
}
