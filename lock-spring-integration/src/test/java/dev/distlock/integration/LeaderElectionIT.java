package dev.distlock.integration;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Leader election in separate processes on a real redis-server ({@link LeaderProcessMain}): Spring Integration's
 * {@code LockRegistryLeaderInitiator} on distlock, in both lease modes, and distlock's own
 * {@link dev.distlock.election.LeaderElection}. Judged by the register every leader writes its token to, which
 * refuses an older one than it took, and by the moments each process reports on the machine's monotonic clock:
 * <ul>
 *   <li>a leader killed (SIGKILL): the other leads within about a lease, with a larger token;</li>
 *   <li>a leader whose renewals fail (its Redis user loses its permissions): revoked at its local deadline, before
 *   the other is granted, in every run;</li>
 *   <li>a leader paused (SIGSTOP) past its lease: the other leads; the paused one, woken, is revoked, and what it
 *   still writes is refused by the register (the hazard no lock rules out, covered by the epoch).</li>
 * </ul>
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LeaderElectionIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String ELECTION = "ELECTION";

    private final List<Candidate> candidates = new ArrayList<>();

    @AfterEach
    void stop() {
        candidates.forEach(Candidate::close);
    }

    @ParameterizedTest
    @ValueSource(strings = {"RENEWED", "EXPIRING", LeaderProcessMain.INITIATOR, ELECTION})
    void whenTheLeadersProcessIsKilledTheOtherLeadsWithinAboutALeaseAndALargerToken(String mode) throws Exception {
        Candidate first = start(mode);
        Candidate second = start(mode);
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
        System.out.println(mode + ": the follower led " + takeover.toMillis() + " ms after the leader was killed "
                + "(lease " + LEASE.toMillis() + " ms), token " + leaderToken + " -> " + follower.grantedToken);
        assertThat(follower.grantedToken).isGreaterThan(leaderToken);
        assertThat(takeover).as("within about a lease").isLessThan(LEASE.multipliedBy(3));
        awaitRegister(follower.grantedToken);
        assertThat(follower.next(Duration.ofMillis(500))).as("no refused write, no revoke").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {LeaderProcessMain.INITIATOR, ELECTION, LeaderProcessMain.INITIATOR, ELECTION,
            LeaderProcessMain.INITIATOR, ELECTION})
    void aLeaderWhoseRenewalsFailIsRevokedBeforeTheOtherIsGranted(String mode) throws Exception {
        redis.server().command("ACL", "SETUSER", "doomed", "reset", "on", ">secret", "~*", "&*", "+@all");
        Candidate doomed = start(mode, "doomed", "secret");
        doomed.expect("ready");
        assertThat(doomed.awaitGranted(BOUND)).isTrue();
        Candidate other = start(mode);
        other.expect("ready");

        redis.server().command("ACL", "SETUSER", "doomed", "-@all");

        long revokedAt = doomed.awaitRevoked(BOUND);
        assertThat(other.awaitGranted(BOUND)).isTrue();
        Duration gap = Duration.ofNanos(other.grantedAt - revokedAt);
        System.out.println(mode + ", renewals refused: revoked " + gap.toMillis() + " ms before the other was "
                + "granted (lease " + LEASE.toMillis() + " ms)");
        assertThat(revokedAt).as("the old leader revoked before the new one was granted").isLessThan(other.grantedAt);
        assertThat(other.grantedToken).isGreaterThan(doomed.grantedToken);
    }

    @Test
    void aLeaderPausedPastItsLeaseIsRevokedOnWakingAndItsLateWritesAreRefused() throws Exception {
        Candidate paused = start(ELECTION);
        paused.expect("ready");
        assertThat(paused.awaitGranted(BOUND)).isTrue();
        Candidate other = start(ELECTION);
        other.expect("ready");
        awaitRegister(paused.grantedToken);

        paused.signal("STOP");
        assertThat(other.awaitGranted(BOUND)).isTrue();
        awaitRegister(other.grantedToken);
        paused.signal("CONT");

        paused.awaitRevoked(BOUND);
        assertThat(other.grantedToken).isGreaterThan(paused.grantedToken);
        assertThat(paused.reportsSoFar()).as("what the woken leader still wrote was refused, if anything")
                .allMatch(report -> report.equals("refused " + paused.grantedToken));
        assertThat(text(redis.server().command("GET", LeaderProcessMain.REGISTER)))
                .isEqualTo(String.valueOf(other.grantedToken));
        assertThat(other.next(Duration.ofMillis(500))).as("the new leader undisturbed").isNull();
    }

    private Candidate start(String mode, String... user) throws IOException {
        Candidate candidate = Candidate.start(redis.server().port(), mode, user);
        candidates.add(candidate);
        return candidate;
    }

    /** Waits until the register holds {@code token}: the leader's writes are taken. */
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
        /** When it reported its grant, on the machine's monotonic clock. */
        private long grantedAt;

        private Candidate(Process process) {
            this.process = process;
            Thread reader = new Thread(this::read, "reports of " + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        static Candidate start(int port, String mode, String... user) throws IOException {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx96m", "-cp", System.getProperty("java.class.path"),
                    LeaderProcessMain.class.getName(), Integer.toString(port), Long.toString(LEASE.toMillis()), mode));
            command.addAll(List.of(user));
            return new Candidate(new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        private void read() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("@ ")) {
                        reports.add(line.substring(2));
                    }
                }
            } catch (IOException ended) {
                // the process was killed
            }
        }

        /** The next report, at most {@code wait} away; {@code null} if none came. */
        String next(Duration wait) throws InterruptedException {
            return reports.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** The reports heard and not read yet. */
        List<String> reportsSoFar() {
            List<String> drained = new ArrayList<>();
            reports.drainTo(drained);
            return drained;
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
            String report = next(wait);
            if (report == null) {
                return false;
            }
            String[] fields = report.split(" ");
            assertThat(fields[0]).as("report of process %s", process.pid()).isEqualTo("granted");
            grantedToken = Long.parseLong(fields[1]);
            grantedAt = Long.parseLong(fields[2]);
            return true;
        }

        /** When this candidate reported its revocation, skipping refused writes; fails if none comes in time. */
        long awaitRevoked(Duration wait) throws InterruptedException {
            long deadline = System.nanoTime() + wait.toNanos();
            while (System.nanoTime() - deadline < 0) {
                String report = next(Duration.ofMillis(100));
                if (report != null && report.startsWith("revoked ")) {
                    return Long.parseLong(report.substring("revoked ".length()));
                }
                assertThat(report).as("report of process %s", process.pid()).satisfiesAnyOf(
                        none -> assertThat(none).isNull(), refused -> assertThat(refused).startsWith("refused "));
            }
            throw new AssertionError("process " + process.pid() + " was not revoked within " + wait);
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        }

        /** Sends {@code SIGSTOP} (a long pause, a frozen VM) or {@code SIGCONT}. */
        void signal(String signal) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + signal).isTrue();
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                try {
                    signal("CONT");
                } catch (IOException | InterruptedException ignored) {
                    // it is killed next
                }
            }
            process.destroyForcibly();
        }
    }
}
