package dev.distlock.test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One {@code redis-server} child process of a {@link RedisServer}; a restart makes a new one. A JVM shutdown hook
 * kills those still alive, so that an aborted test run does not leave processes behind.
 */
final class RedisProcess {

    static final String HOST = "127.0.0.1";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    /** How long each of SHUTDOWN and SIGTERM may take before the next, harsher step. */
    private static final long STOP_STEP_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private static final Set<RedisProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(RedisProcess::killAllOnExit, "distlock-redis-server-reaper"));
    }

    private final Process process;
    private final int port;
    private final RedisDir dir;
    private volatile boolean suspended;
    private volatile long pausedUntilNanos;

    private RedisProcess(Process process, int port, RedisDir dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.pausedUntilNanos = System.nanoTime();
    }

    /**
     * Starts the process without waiting for it; {@link #awaitReady()} does.
     *
     * @param command the executable and its arguments
     * @param port the port the command makes the server listen on
     * @param dir the working directory, which holds the log files
     */
    static RedisProcess spawn(List<String> command, int port, RedisDir dir) {
        Path binary = Path.of(command.get(0));
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(dir.path().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.out().toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot run " + binary + ": " + e.getMessage() + "\n" + RedisBinaryLocator.installInstructions(), e);
        }
        try {
            process.getOutputStream().close(); // redis-server does not read stdin
        } catch (IOException ignored) {
            // harmless
        }
        RedisProcess redis = new RedisProcess(process, port, dir);
        LIVE.add(redis);
        return redis;
    }

    /**
     * Waits (at most 10 s) until this very process answers PING on its port.
     *
     * @throws PortTakenException if it exited because another process holds the port
     * @throws IllegalStateException if it exited otherwise or did not answer in time, with the tail of its log
     */
    void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        RuntimeException last = null;
        while (true) {
            if (!process.isAlive()) {
                LIVE.remove(this);
                String tail = dir.tail();
                String message = "redis-server on port " + port + " exited with code " + process.exitValue()
                        + " while starting." + tail;
                throw tail.contains("Address already in use")
                        ? new PortTakenException(message)
                        : new IllegalStateException(message);
            }
            try (RespClient client = client(PROBE_TIMEOUT)) {
                if ("PONG".equals(client.command("PING"))) {
                    long actualPid = Long.parseLong(infoField(client.command("INFO", "server"), "process_id"));
                    if (actualPid == process.pid()) {
                        return;
                    }
                    last = new IllegalStateException(
                            "port " + port + " is answered by another redis-server (pid " + actualPid + ")");
                }
            } catch (RuntimeException e) {
                last = e; // not listening yet, or still loading
            }
            if (System.nanoTime() - deadline > 0) {
                process.destroyForcibly();
                Processes.waitForExit(process, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
                LIVE.remove(this);
                throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                        + START_TIMEOUT.toSeconds() + " s." + dir.tail(), last);
            }
            Processes.pollPause();
        }
    }

    /** The value of one field of an {@code INFO} reply, e.g. {@code process_id}. */
    static String infoField(Object info, String field) {
        return RedisInfo.field(info, field);
    }

    /** Ends the process with SIGKILL and waits (at most 10 s) until it has exited, so that its ports are free. */
    void kill() {
        process.destroyForcibly(); // SIGKILL, which also ends a SIGSTOPped process
        if (!Processes.waitForExit(process, System.nanoTime() + STOP_TIMEOUT.toNanos())) {
            throw new IllegalStateException("redis-server pid " + process.pid() + " on port " + port
                    + " did not exit within " + STOP_TIMEOUT.toSeconds() + " s of SIGKILL");
        }
        suspended = false;
        pausedUntilNanos = System.nanoTime();
        LIVE.remove(this);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    boolean isSuspended() {
        return suspended && process.isAlive();
    }

    /** Sends SIGSTOP and waits until the kernel reports the process stopped (where {@code /proc} is available). */
    void suspend() {
        if (!process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
        Processes.signal(process.pid(), "STOP");
        suspended = true;
        Processes.awaitStopped(process.pid(), true);
    }

    /** Sends SIGCONT if suspended and waits until the kernel reports the process running. */
    void resume() {
        if (!isSuspended()) {
            suspended = false;
            return;
        }
        Processes.signal(process.pid(), "CONT");
        suspended = false;
        Processes.awaitStopped(process.pid(), false);
    }

    /** Records that {@code CLIENT PAUSE} may block commands until {@code untilNanos} ({@link System#nanoTime()}). */
    void pausedUntil(long untilNanos) {
        pausedUntilNanos = untilNanos;
    }

    boolean mayBePaused() {
        return System.nanoTime() - pausedUntilNanos < 0;
    }

    /**
     * Ends the process: {@code SHUTDOWN NOSAVE}, falling back to SIGTERM and then SIGKILL, and waits (at most 10 s)
     * until it has exited, so that the port is free. Does nothing when it has already exited.
     */
    void stop() {
        if (process.isAlive()) {
            long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
            if (suspended) {
                Processes.signal(process.pid(), "CONT"); // a stopped process would not act on SHUTDOWN or SIGTERM
                suspended = false;
            }
            if (mayBePaused()) {
                process.destroy(); // SIGTERM: under CLIENT PAUSE, SHUTDOWN would wait for the end of the pause
            } else {
                shutdownNoSave();
            }
            if (!Processes.waitForExit(process, Math.min(deadline, System.nanoTime() + STOP_STEP_NANOS))) {
                process.destroy();
                if (!Processes.waitForExit(process, deadline - STOP_STEP_NANOS)) {
                    process.destroyForcibly();
                    if (!Processes.waitForExit(process, deadline)) {
                        throw new IllegalStateException("redis-server pid " + process.pid() + " on port " + port
                                + " did not exit within " + STOP_TIMEOUT.toSeconds() + " s");
                    }
                }
            }
            pausedUntilNanos = System.nanoTime();
        }
        suspended = false;
        LIVE.remove(this);
    }

    private void shutdownNoSave() {
        try (RespClient client = client(Duration.ofNanos(STOP_STEP_NANOS))) {
            client.command("SHUTDOWN", "NOSAVE");
        } catch (RuntimeException expected) {
            // on success the server closes the connection without a reply
        }
    }

    private RespClient client(Duration timeout) {
        return RespClient.connect(HOST, port, timeout);
    }

    private static void killAllOnExit() {
        for (RedisProcess redis : LIVE) {
            redis.process.destroyForcibly(); // SIGKILL also ends a SIGSTOPped process
        }
        for (RedisProcess redis : LIVE) {
            Processes.waitForExit(redis.process, System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
            redis.dir.delete();
        }
    }

    /** Startup failed because another process holds the port. */
    static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }
}
