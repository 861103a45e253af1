package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Spring Integration's {@code LockRegistryLeaderInitiator} on distlock, in two processes on a real redis-server: one
 * leads; when its process is killed (SIGKILL), the other leads within about a lease, with a larger fencing token, and
 * was never leader while the first was (judged by the register both write their tokens to, which refuses an older
 * one, and by when each was granted). In both lease modes: renewed by the watchdog, and expiring as Spring
 * Integration's locks (the leader keeps its lock by acquiring it again every heart beat).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LeaderElectionIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration BOUND = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(LeaseMode.class)
    void whenTheLeadersProcessIsKilledTheOtherLeadsWithinAboutALeaseAndALargerToken(LeaseMode mode) throws Exception {
        try (Candidate first = Candidate.start(redis.server().port(), mode); Candidate second = Candidate.start(
                redis.server().port(), mode)) {
            first.expect("ready");
            second.expect("ready");
            Candidate leader = Candidate.firstGranted(first, second);
            Candidate follower = leader == first ? second : first;
            long leaderToken = leader.grantedToken;
            assertThat(follower.next(Duration.ofMillis(500))).as("the follower leads too").isNull();

            leader.kill();
            long killedAt = System.nanoTime();

            assertThat(follower.awaitGranted(BOUND)).isTrue();
            Duration takeover = Duration.ofNanos(follower.grantedAt - killedAt);
            System.out.println("the follower led " + takeover.toMillis() + " ms after the leader was killed (lease "
                    + LEASE.toMillis() + " ms), token " + leaderToken + " -> " + follower.grantedToken);
            assertThat(follower.grantedToken).isGreaterThan(leaderToken);
            assertThat(takeover).as("within about a lease").isLessThan(LEASE.multipliedBy(3));
            awaitRegister(follower.grantedToken);
            assertThat(follower.next(Duration.ofMillis(500))).as("no refused write, no revoke").isNull();
        }
    }

    /** Waits until the register holds {@code token}: the new leader's writes are taken. */
    private static void awaitRegister(long token) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!String.valueOf(token).equals(text(redis.server().command("GET", LeaderProcessMain.REGISTER)))) {
            assertThat(System.nanoTime() - deadline).as("the register took token " + token).isNegative();
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** One child JVM running {@link LeaderProcessMain}; its reports, as they come. */
    private static final class Candidate implements AutoCloseable {

        private final Process process;
        private final BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        private long grantedToken;
        private long grantedAt;

        private Candidate(Process process) {
            this.process = process;
            Thread reader = new Thread(this::read, "reports of " + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        static Candidate start(int port, LeaseMode mode) throws IOException {
            return new Candidate(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx96m", "-cp", System.getProperty("java.class.path"), LeaderProcessMain.class.getName(),
                    Integer.toString(port), Long.toString(LEASE.toMillis()), mode.name()).redirectErrorStream(true).start());
        }

        private void read() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("@ ")) {
                        reports.add(System.nanoTime() + " " + line.substring(2));
                    }
                }
            } catch (IOException ended) {
                // the process was killed
            }
        }

        /** The next report, at most {@code wait} away, without its arrival time; {@code null} if none came. */
        String next(Duration wait) throws InterruptedException {
            String report = reports.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
            return report == null ? null : report.substring(report.indexOf(' ') + 1);
        }

        void expect(String report) throws InterruptedException {
            assertThat(next(BOUND)).isEqualTo(report);
        }

        /** The one of two candidates granted leadership first (within {@link #BOUND}). */
        static Candidate firstGranted(Candidate one, Candidate other) throws InterruptedException {
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (System.nanoTime() - deadline < 0) {
                for (Candidate candidate : List.of(one, other)) {
                    if (candidate.awaitGranted(Duration.ofMillis(50))) {
                        return candidate;
                    }
                }
            }
            throw new AssertionError("no candidate was granted leadership within " + BOUND);
        }

        /** Whether this candidate is granted leadership within {@code wait}; fails on any other report. */
        boolean awaitGranted(Duration wait) throws InterruptedException {
            String report = reports.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
            if (report == null) {
                return false;
            }
            List<String> fields = List.of(report.split(" "));
            assertThat(fields.get(1)).as("report of process %s", process.pid()).isEqualTo("granted");
            grantedAt = Long.parseLong(fields.get(0));
            grantedToken = Long.parseLong(fields.get(2));
            return true;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
