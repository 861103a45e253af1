package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ShedLock's own use, unchanged: one {@code @SchedulerLock} job scheduled every second by two instances of an
 * application, each a process of its own (child JVMs) on one real redis-server, their schedules 300 ms apart,
 * ShedLock's provider being distlock's. With {@code lockAtLeastFor} the job runs once per period across both; the same
 * two schedules without a lock would run it twice per period, less than {@code lockAtLeastFor} apart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SchedulerLockIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration PERIOD = Duration.ofMillis(1000);
    private static final Duration AT_LEAST = Duration.ofMillis(800);
    private static final Duration SKEW = Duration.ofMillis(300);
    private static final int RUNS = 6;
    private static final Duration BOUND = Duration.ofSeconds(90);

    @Test
    void theJobRunsOncePerPeriodAcrossTwoProcesses() throws Exception {
        BlockingQueue<Long> runs = new LinkedBlockingQueue<>();
        List<Process> instances = new ArrayList<>();
        try {
            // each starts its schedule well after it is up, so that both are running before the first run
            instances.add(start(Duration.ofSeconds(8), runs));
            instances.add(start(Duration.ofSeconds(8).plus(SKEW), runs));
            List<Long> times = new ArrayList<>();
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (times.size() < RUNS) {
                Long run = runs.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertThat(run).as("%s runs within %s", RUNS, BOUND).isNotNull();
                times.add(run);
            }
            instances.forEach(Process::destroyForcibly);
            times.sort(null);
            List<Long> gaps = new ArrayList<>();
            for (int i = 1; i < times.size(); i++) {
                gaps.add(times.get(i) - times.get(i - 1));
            }
            // the next run starts once lockAtLeastFor is over in Redis, never sooner (ms rounding aside)
            assertThat(gaps).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(AT_LEAST.toMillis() - 20));
        } finally {
            instances.forEach(Process::destroyForcibly);
        }
    }

    /** Starts an instance; its runs' times (epoch ms, one clock: the machine's) go to {@code runs}. */
    private static Process start(Duration initialDelay, BlockingQueue<Long> runs) throws IOException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), ScheduledInstanceMain.class.getName(),
                Integer.toString(redis.server().port()), Long.toString(PERIOD.toMillis()),
                Long.toString(initialDelay.toMillis()), Long.toString(AT_LEAST.toMillis()))
                .redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("@ run ")) {
                        runs.add(Long.parseLong(line.substring("@ run ".length())));
                    }
                }
            } catch (IOException ended) {
                // the process was stopped
            }
        }, "runs of " + process.pid());
        reader.setDaemon(true);
        reader.start();
        return process;
    }
}
