package dev.distlock.test;

import dev.distlock.test.RedisProcess.PortTakenException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One real {@code redis-server} child process on a free loopback port, without persistence, for integration and
 * fault-injection tests.
 *
 * <p>The binary is found through the system property {@value #BINARY_PROPERTY}, the environment variable
 * {@value #BINARY_ENV}, the directories of {@code PATH}, then {@code /usr/bin}, {@code /usr/local/bin} and
 * {@code /opt/homebrew/bin}. When there is none, {@link #start()} throws with installation instructions: tests on
 * Redis fail, they never skip.
 *
 * <p>Other server versions (e.g. Redis 6.0, Valkey 8.0) run with {@link #start(RedisBinary)}; other options, a
 * configuration file or a Redis Cluster node with {@link #builder()}.
 *
 * <p>Every wait is bounded. A JVM shutdown hook kills the servers still running when the JVM exits, so an aborted
 * test run does not leave processes behind. In JUnit tests prefer {@link RedisServerExtension}.
 */
public final class RedisServer implements AutoCloseable {

    /** System property naming the {@code redis-server} binary to use. */
    public static final String BINARY_PROPERTY = "distlock.redis-server";

    /** Environment variable naming the {@code redis-server} binary to use. */
    public static final String BINARY_ENV = "REDIS_SERVER_BIN";

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 5;
    /** Added to a client pause, as the server counts it from a slightly later moment than we do. */
    private static final long PAUSE_MARGIN_MILLIS = 50;

    private final RedisCommandLine commandLine;
    private final int port;
    private final RedisDir dir;
    private volatile RedisProcess process; // set by launch() before start() returns the server
    private volatile boolean closed;

    private RedisServer(RedisCommandLine commandLine, int port, RedisDir dir) {
        this.commandLine = commandLine;
        this.port = port;
        this.dir = dir;
    }

    /**
     * Starts a new server of the installed binary ({@link RedisBinary#installed()}) on a free loopback port and waits
     * (at most 10 s) until it answers PING.
     *
     * @return the running server; close it when done
     * @throws IllegalStateException if no {@code redis-server} binary is found (with installation instructions) or
     *     the server does not come up (with the tail of its log)
     */
    public static RedisServer start() {
        return builder().start();
    }

    /**
     * Starts a new server of the given binary, e.g. {@code RedisServer.start(RedisBinary.named("redis-6.0"))}, like
     * {@link #start()}.
     *
     * @param binary the server binary to run
     * @return the running server; close it when done
     * @throws IllegalStateException if the server does not come up (with the tail of its log)
     */
    public static RedisServer start(RedisBinary binary) {
        return builder().binary(binary).start();
    }

    /**
     * A builder for servers with another binary, a configuration file, extra options, or several at once.
     *
     * @return a new builder
     */
    public static RedisServerBuilder builder() {
        return new RedisServerBuilder();
    }

    static RedisServer start(RedisCommandLine commandLine, boolean clusterBus) {
        RedisDir dir = RedisDir.create();
        IllegalStateException failure = null;
        try {
            commandLine.writeConfig(dir);
            for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
                int port = clusterBus ? FreePorts.freePortWithClusterBus() : FreePorts.freePort();
                RedisServer server = new RedisServer(commandLine, port, dir);
                try {
                    server.launch();
                    return server;
                } catch (PortTakenException e) {
                    failure = e; // another process grabbed the port between probe and bind: pick another one
                }
            }
        } catch (RuntimeException | Error e) {
            dir.delete();
            throw e;
        }
        dir.delete();
        throw new IllegalStateException(
                "redis-server could not bind a free port in " + START_ATTEMPTS + " attempts", failure);
    }

    /** The binary this server runs. */
    public RedisBinary binary() {
        return commandLine.binary();
    }

    /** The address the server listens on: always {@code 127.0.0.1}. */
    public String host() {
        return RedisProcess.HOST;
    }

    /** The TCP port; it stays the same across {@link #restart()}. */
    public int port() {
        return port;
    }

    /** The process id of the current {@code redis-server} process; it changes on restart. */
    public long pid() {
        return process.pid();
    }

    /** The server's URI, e.g. {@code redis://127.0.0.1:6390}, for client libraries. */
    public String uri() {
        return "redis://" + host() + ":" + port;
    }

    /** The server's working directory (holds {@code redis.log}); deleted by {@link #close()}. */
    public Path dir() {
        return dir.path();
    }

    /**
     * The configuration file the server was started with ({@code redis.conf} in {@link #dir()}), if the builder gave
     * it one; a test may edit it before {@link #restart()}.
     *
     * @return the file, or empty
     */
    public Optional<Path> configFile() {
        return commandLine.configLines() == null ? Optional.empty() : Optional.of(dir.config());
    }

    /**
     * Opens a new connection with a 10 s timeout.
     *
     * @return a client the caller closes
     */
    public RespClient client() {
        return client(CLIENT_TIMEOUT);
    }

    /**
     * Opens a new connection whose connect and reads are bounded by {@code timeout}.
     *
     * @param timeout bound for connecting and for each reply
     * @return a client the caller closes
     */
    public RespClient client(Duration timeout) {
        return RespClient.connect(host(), port, timeout);
    }

    /**
     * Runs one command on a fresh connection (10 s timeout), e.g. {@code command("GET", "k")}.
     *
     * @param args the command name and its arguments
     * @return the reply, mapped as described in {@link RespClient}
     */
    public Object command(String... args) {
        try (RespClient client = client()) {
            return client.command(args);
        }
    }

    /**
     * Runs a write command, then {@code WAIT replicas timeout} on the same connection, as {@code WAIT} only waits for
     * the writes of its own connection (on a fresh one it returns at once, whatever the replicas have).
     *
     * @param replicas how many replicas must acknowledge the write
     * @param timeout how long to wait for them
     * @param write the write command and its arguments, e.g. {@code "SET", "k", "v"}
     * @return how many replicas acknowledged the write
     */
    public long writeAndWait(int replicas, Duration timeout, String... write) {
        try (RespClient client = client(CLIENT_TIMEOUT.plus(timeout))) {
            client.command(write);
            return (Long) client.command("WAIT", Integer.toString(replicas), Long.toString(timeout.toMillis()));
        }
    }

    /** Whether the server process is alive (it may be suspended). */
    public boolean isRunning() {
        return process.isAlive();
    }

    /** Whether the process has been stopped with {@link #suspend()} and not resumed yet. */
    public boolean isSuspended() {
        return process.isSuspended();
    }

    /**
     * Ends the process: {@code SHUTDOWN NOSAVE}, falling back to SIGTERM and then SIGKILL, and waits (at most 10 s)
     * until it has exited, so that the port is free. Does nothing when already stopped.
     */
    public synchronized void stop() {
        process.stop();
    }

    /**
     * Kills the process with SIGKILL (a crash: no shutdown, no goodbye to replicas or clients) and waits (at most
     * 10 s) until it has exited, so that the port is free. Does nothing when already stopped.
     */
    public synchronized void kill() {
        process.kill();
    }

    /**
     * Stops the server if running and starts a new process on the same port and directory, waiting (at most 10 s)
     * until it answers PING. Data does not survive: persistence is off.
     *
     * @throws IllegalStateException if the new process does not come up (with the tail of its log), e.g. because
     *     another process took the port meanwhile
     */
    public synchronized void restart() {
        checkNotClosed();
        stop();
        launch();
    }

    /**
     * Like {@link #restart()}, but keeps the server down for {@code downtime} first (measured from when it has
     * stopped), e.g. a Redlock node restarted only after the longest lease. To crash it first, call {@link #kill()}.
     *
     * @param downtime how long the port stays closed
     */
    public synchronized void restart(Duration downtime) {
        checkNotClosed();
        stop();
        try {
            Thread.sleep(downtime.toMillis()); // the downtime itself is what the caller asked for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keeping " + this + " down", e);
        }
        launch();
    }

    /**
     * Freezes the process with SIGSTOP: connections stay open but nothing is answered, like a server stuck in a long
     * pause or behind a network partition. Returns once the kernel reports the process stopped (where {@code /proc}
     * is available).
     */
    public synchronized void suspend() {
        process.suspend();
    }

    /** Continues a process frozen by {@link #suspend()} with SIGCONT. Does nothing if not suspended. */
    public synchronized void resume() {
        process.resume();
    }

    /**
     * Blocks all client commands for {@code duration} with {@code CLIENT PAUSE <ms> ALL}; commands sent meanwhile are
     * answered when the pause ends.
     *
     * @param duration length of the pause
     */
    public void pauseClients(Duration duration) {
        long millis = Math.max(1, duration.toMillis());
        long start = System.nanoTime();
        if (binary().isAtLeastRedis(6, 2)) {
            command("CLIENT", "PAUSE", Long.toString(millis), "ALL");
        } else {
            command("CLIENT", "PAUSE", Long.toString(millis)); // before 6.2 a pause always blocks all commands
        }
        process.pausedUntil(start + TimeUnit.MILLISECONDS.toNanos(millis + PAUSE_MARGIN_MILLIS));
    }

    /** Whether a pause started by {@link #pauseClients(Duration)} may still be in effect. */
    boolean mayBePaused() {
        return process.mayBePaused();
    }

    /** Deletes every key of every database ({@code FLUSHALL}). */
    public void flushAll() {
        command("FLUSHALL");
    }

    /**
     * Kills every server with SIGKILL and closes it (deleting its directory), also when one of them fails: for
     * topologies whose data need not be saved and whose primaries should not wait for replicas on shutdown.
     *
     * @param servers the servers
     * @throws RuntimeException the first failure, the others suppressed
     */
    public static void killAll(List<RedisServer> servers) {
        for (RedisServer server : servers) {
            try {
                server.kill();
            } catch (RuntimeException ignored) {
                // close() below stops it again and reports
            }
        }
        RedisServerGroup.closeAll(servers);
    }

    /**
     * Like {@link #killAll(List)}, for cleaning up after {@code cause}: failures while closing are added to it as
     * suppressed instead of thrown.
     *
     * @param servers the servers
     * @param cause the failure being handled
     */
    public static void killAll(List<RedisServer> servers, Throwable cause) {
        try {
            killAll(servers);
        } catch (RuntimeException closing) {
            cause.addSuppressed(closing);
        }
    }

    /** Stops the server and deletes its directory; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            stop();
        } finally {
            closed = true;
            dir.delete();
        }
    }

    @Override
    public String toString() {
        RedisProcess p = process;
        String state = p.isAlive() ? (p.isSuspended() ? "suspended" : "running") : "stopped";
        return "RedisServer[" + uri() + ", pid " + p.pid() + ", " + state + "]";
    }

    private void launch() {
        checkNotClosed();
        RedisProcess p = RedisProcess.spawn(commandLine.command(port, dir), port, dir);
        process = p; // before waiting, so that a failed restart reports the failed process
        p.awaitReady();
    }

    private void checkNotClosed() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }
}
