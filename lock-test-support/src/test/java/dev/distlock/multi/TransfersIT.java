package dev.distlock.multi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.test.RedisServerExtension;
import dev.distlock.test.cluster.RedisCluster;
import dev.distlock.test.cluster.RedisClusterExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Locks on several names: transfers between two accounts in both directions, each under one lock on both names, from
 * 2 processes × 8 threads for 10 s ({@code -Ddistlock.transfers.seconds=N} for up to 90): none waits for its lock in
 * vain (no deadlock) and the total of the balances stays exact. On one Redis and on a cluster (the two names on different slots), each process a
 * child JVM; in memory, two registries on one store.
 */
final class TransfersIT {

    private static final int PROCESSES = 2;
    private static final int THREADS = 8;
    private static final Duration DURATION = Duration.ofSeconds(Long.getLong("distlock.transfers.seconds", 10));
    private static final long OPENING_BALANCE = 1_000_000;

    private TransfersIT() {
    }

    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    static class OnOneRedisIT {

        @RegisterExtension
        static final RedisServerExtension redis = new RedisServerExtension();

        @Test
        void transfersBothWaysNeverDeadlockAndKeepTheTotal() throws Exception {
            redis.server().command("MSET", "account:a", Long.toString(OPENING_BALANCE), "account:b",
                    Long.toString(OPENING_BALANCE));

            List<Transfers.Outcome> outcomes = inProcesses("standalone", "127.0.0.1:" + redis.server().port());

            assertEveryTransferRan(outcomes);
            assertThat(balance(redis.server().command("GET", "account:a"))
                    + balance(redis.server().command("GET", "account:b"))).isEqualTo(2 * OPENING_BALANCE);
        }
    }

    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    static class OnAClusterIT {

        @RegisterExtension
        static final RedisClusterExtension redis = new RedisClusterExtension();

        @Test
        void transfersBothWaysNeverDeadlockAndKeepTheTotal() throws Exception {
            RedisCluster cluster = redis.cluster();
            for (String account : Transfers.ACCOUNTS) {
                cluster.primaryForKey(account).command("SET", account, Long.toString(OPENING_BALANCE));
            }
            assertThat(cluster.primaryForKey("distlock:{account:a}")).as("the names on different primaries")
                    .isNotEqualTo(cluster.primaryForKey("distlock:{account:b}"));

            List<Transfers.Outcome> outcomes = inProcesses("cluster", String.join(",", cluster.seedAddresses()));

            assertEveryTransferRan(outcomes);
            long total = 0;
            for (String account : Transfers.ACCOUNTS) {
                total += balance(cluster.primaryForKey(account).command("GET", account));
            }
            assertThat(total).isEqualTo(2 * OPENING_BALANCE);
        }
    }

    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    static class InMemoryIT {

        @Test
        void transfersBothWaysNeverDeadlockAndKeepTheTotal() throws Exception {
            InMemoryLockStore store = new InMemoryLockStore();
            Map<String, Long> accounts = new ConcurrentHashMap<>(Map.of("account:a", OPENING_BALANCE, "account:b",
                    OPENING_BALANCE));
            Transfers.Balances balances = new Transfers.Balances() {
                @Override
                public long read(String account) {
                    return accounts.get(account);
                }

                @Override
                public void write(String account, long balance) {
                    accounts.put(account, balance);
                }
            };
            List<CompletableFuture<Transfers.Outcome>> runs = new ArrayList<>();
            for (int i = 0; i < PROCESSES; i++) {
                InMemoryLockRegistry registry = InMemoryLockRegistry.builder().store(store).build();
                runs.add(CompletableFuture.supplyAsync(() -> {
                    try (registry) {
                        return Transfers.run(registry, balances, THREADS, DURATION);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(ex);
                    }
                }));
            }
            List<Transfers.Outcome> outcomes = new ArrayList<>();
            for (CompletableFuture<Transfers.Outcome> run : runs) {
                outcomes.add(run.get(DURATION.plusSeconds(90).toSeconds(), TimeUnit.SECONDS));
            }

            assertEveryTransferRan(outcomes);
            assertThat(accounts.get("account:a") + accounts.get("account:b")).isEqualTo(2 * OPENING_BALANCE);
        }
    }

    private static void assertEveryTransferRan(List<Transfers.Outcome> outcomes) {
        System.out.println("transfers, timeouts, errors per process: " + outcomes);
        assertThat(outcomes).hasSize(PROCESSES).allSatisfy(outcome -> {
            assertThat(outcome.errors()).as("errors (%s)", outcome.firstError()).isZero();
            assertThat(outcome.timeouts()).as("transfers that waited %s in vain", Transfers.WAIT).isZero();
            assertThat(outcome.transfers()).isPositive();
        });
    }

    private static long balance(Object reply) {
        return Long.parseLong(reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
                : String.valueOf(reply));
    }

    /** Runs {@link TransferProcessMain} in {@value #PROCESSES} child JVMs at once; their outcomes. */
    private static List<Transfers.Outcome> inProcesses(String mode, String servers) throws Exception {
        List<CompletableFuture<Transfers.Outcome>> runs = new ArrayList<>();
        List<Process> processes = new ArrayList<>();
        for (int i = 0; i < PROCESSES; i++) {
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx128m", "-cp", System.getProperty("java.class.path"), TransferProcessMain.class.getName(),
                    mode, servers, Integer.toString(THREADS), Long.toString(DURATION.toSeconds()))
                    .redirectErrorStream(true).start();
            processes.add(process);
            runs.add(CompletableFuture.supplyAsync(() -> outcomeOf(process)));
        }
        List<Transfers.Outcome> outcomes = new ArrayList<>();
        try {
            for (CompletableFuture<Transfers.Outcome> run : runs) {
                outcomes.add(run.get(DURATION.plusSeconds(90).toSeconds(), TimeUnit.SECONDS));
            }
        } finally {
            processes.forEach(Process::destroyForcibly); // only these: the servers are this JVM's children too
        }
        return outcomes;
    }

    /** Reads the process's output until its {@code @ done} line. */
    private static Transfers.Outcome outcomeOf(Process process) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            StringBuilder tail = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("@ done ")) {
                    String[] fields = line.substring("@ done ".length()).split(" ", 4);
                    return new Transfers.Outcome(Long.parseLong(fields[0]), Long.parseLong(fields[1]),
                            Long.parseLong(fields[2]), fields.length > 3 ? fields[3] : null);
                }
                tail.append(line).append('\n');
                if (tail.length() > 4000) {
                    tail.delete(0, tail.length() - 4000);
                }
            }
            throw new AssertionError("the process ended without its outcome:\n" + tail);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
