package dev.distlock.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One real {@code redis-server} child process on a free loopback port, without persistence, for
 * integration and fault-injection tests.
 *
 * <p>The binary is found through the system property {@value #BINARY_PROPERTY}, the environment
 * variable {@value #BINARY_ENV}, the directories of {@code PATH}, then {@code /usr/bin},
 * {@code /usr/local/bin} and {@code /opt/homebrew/bin}. When there is none, {@link #start()} throws
 * with installation instructions: tests on Redis fail, they never skip.
 *
 * <p>Every wait is bounded. A JVM shutdown hook kills the servers still running when the JVM exits,
 * so an aborted test run does not leave processes behind. In JUnit tests prefer
 * {@link RedisServerExtension}.
 */
public final class RedisServer implements AutoCloseable {

  /** System property naming the {@code redis-server} binary to use. */
  public static final String BINARY_PROPERTY = "distlock.redis-server";

  /** Environment variable naming the {@code redis-server} binary to use. */
  public static final String BINARY_ENV = "REDIS_SERVER_BIN";

  private static final String HOST = "127.0.0.1";
  private static final List<Path> FALLBACK_DIRS =
      List.of(Paths.get("/usr/bin"), Paths.get("/usr/local/bin"), Paths.get("/opt/homebrew/bin"));
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(10);
  private static final int START_ATTEMPTS = 5;
  private static final int LOG_TAIL_LINES = 40;

  /** Servers whose process may still be alive; killed by the shutdown hook. */
  private static final Set<RedisServer> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Thread hook = new Thread(RedisServer::killAllOnExit, "distlock-redis-server-reaper");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private final Path binary;
  private final int port;
  private final Path dir;
  private volatile Process process;
  private volatile boolean suspended;
  private volatile long pausedUntilNanos;
  private volatile boolean closed;

  private RedisServer(Path binary, int port, Path dir) {
    this.binary = binary;
    this.port = port;
    this.dir = dir;
    this.pausedUntilNanos = System.nanoTime();
  }

  /**
   * Starts a new server on a free loopback port and waits (at most 10 s) until it answers PING.
   *
   * @return the running server; close it when done
   * @throws IllegalStateException if no {@code redis-server} binary is found (with installation
   *     instructions) or the server does not come up (with the tail of its log)
   */
  public static RedisServer start() {
    return start(findRedisServer());
  }

  /** Starts a server from the given binary; retries with another port on a bind race. */
  static RedisServer start(Path binary) {
    Path dir;
    try {
      dir = Files.createTempDirectory("distlock-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for redis-server", e);
    }
    IllegalStateException failure = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      RedisServer server = new RedisServer(binary, freePort(), dir);
      try {
        server.launch();
        return server;
      } catch (PortTakenException e) {
        failure = e; // another process grabbed the port between probe and bind: pick another one
      } catch (RuntimeException | Error e) {
        deleteRecursively(dir);
        throw e;
      }
    }
    deleteRecursively(dir);
    throw new IllegalStateException(
        "redis-server could not bind a free port in " + START_ATTEMPTS + " attempts", failure);
  }

  /** The address the server listens on: always {@code 127.0.0.1}. */
  public String host() {
    return HOST;
  }

  /** The TCP port; it stays the same across {@link #restart()}. */
  public int port() {
    return port;
  }

  /** The process id of the current {@code redis-server} process; it changes on restart. */
  public long pid() {
    return currentProcess().pid();
  }

  /** The server's URI, e.g. {@code redis://127.0.0.1:6390}, for client libraries. */
  public String uri() {
    return "redis://" + HOST + ":" + port;
  }

  /** The server's working directory (holds {@code redis.log}); deleted by {@link #close()}. */
  public Path dir() {
    return dir;
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
    return RespClient.connect(HOST, port, timeout);
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

  /** Whether the server process is alive (it may be suspended). */
  public boolean isRunning() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /** Whether the process has been stopped with {@link #suspend()} and not resumed yet. */
  public boolean isSuspended() {
    return suspended && isRunning();
  }

  /**
   * Ends the process: {@code SHUTDOWN NOSAVE}, falling back to SIGTERM and then SIGKILL, and waits
   * (at most 10 s) until it has exited, so that the port is free. Does nothing when already stopped.
   */
  public synchronized void stop() {
    Process p = process;
    if (p == null || !p.isAlive()) {
      suspended = false;
      LIVE.remove(this);
      return;
    }
    long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
    if (suspended) {
      signal("CONT"); // a stopped process would not act on SHUTDOWN or SIGTERM
      suspended = false;
    }
    if (mayBePaused()) {
      p.destroy(); // SIGTERM: under CLIENT PAUSE, SHUTDOWN would wait for the end of the pause
    } else {
      try (RespClient client = client(Duration.ofSeconds(2))) {
        client.command("SHUTDOWN", "NOSAVE");
      } catch (RuntimeException expected) {
        // on success the server closes the connection without a reply
      }
    }
    if (!waitForExit(p, Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(2)))) {
      p.destroy();
      if (!waitForExit(p, deadline - TimeUnit.SECONDS.toNanos(2))) {
        p.destroyForcibly();
        if (!waitForExit(p, deadline)) {
          throw new IllegalStateException(
              "redis-server pid " + p.pid() + " on port " + port + " did not exit within "
                  + STOP_TIMEOUT.toSeconds() + " s");
        }
      }
    }
    pausedUntilNanos = System.nanoTime();
    LIVE.remove(this);
  }

  /**
   * Stops the server if running and starts a new process on the same port and directory, waiting
   * (at most 10 s) until it answers PING. Data does not survive: persistence is off.
   *
   * @throws IllegalStateException if the new process does not come up (with the tail of its log),
   *     e.g. because another process took the port meanwhile
   */
  public synchronized void restart() {
    checkNotClosed();
    stop();
    launch();
  }

  /**
   * Freezes the process with SIGSTOP: connections stay open but nothing is answered, like a server
   * stuck in a long GC-free pause or a network partition. Returns once the kernel reports the
   * process stopped (where {@code /proc} is available).
   */
  public synchronized void suspend() {
    Process p = currentProcess();
    signal("STOP");
    suspended = true;
    awaitProcState(p.pid(), true);
  }

  /** Continues a process frozen by {@link #suspend()} with SIGCONT. Does nothing if not suspended. */
  public synchronized void resume() {
    Process p = process;
    if (!suspended || p == null || !p.isAlive()) {
      suspended = false;
      return;
    }
    signal("CONT");
    suspended = false;
    awaitProcState(p.pid(), false);
  }

  /**
   * Blocks all client commands for {@code duration} with {@code CLIENT PAUSE <ms> ALL}; commands sent
   * meanwhile are answered when the pause ends.
   *
   * @param duration length of the pause
   */
  public void pauseClients(Duration duration) {
    long millis = Math.max(1, duration.toMillis());
    long start = System.nanoTime();
    command("CLIENT", "PAUSE", Long.toString(millis), "ALL");
    pausedUntilNanos = start + TimeUnit.MILLISECONDS.toNanos(millis) + TimeUnit.MILLISECONDS.toNanos(50);
  }

  /** Whether a pause started by {@link #pauseClients(Duration)} may still be in effect. */
  boolean mayBePaused() {
    return System.nanoTime() - pausedUntilNanos < 0;
  }

  /** Deletes every key of every database ({@code FLUSHALL}). */
  public void flushAll() {
    command("FLUSHALL");
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
      deleteRecursively(dir);
    }
  }

  @Override
  public String toString() {
    Process p = process;
    return "RedisServer[" + uri() + (p == null ? "" : ", pid " + p.pid())
        + (isRunning() ? (suspended ? ", suspended" : ", running") : ", stopped") + "]";
  }

  // ---------------------------------------------------------------------------------------------
  // process handling

  private void launch() {
    checkNotClosed();
    Path log = dir.resolve("redis.log");
    List<String> command = List.of(
        binary.toString(),
        "--port", Integer.toString(port),
        "--bind", HOST,
        "--save", "",
        "--appendonly", "no",
        "--enable-debug-command", "yes",
        "--dir", dir.toString(),
        "--logfile", log.toString(),
        "--daemonize", "no");
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.out").toFile()));
    Process p;
    try {
      p = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + binary + ": " + e.getMessage()
          + "\n" + installInstructions(), e);
    }
    try {
      p.getOutputStream().close(); // redis-server does not read stdin
    } catch (IOException ignored) {
      // harmless
    }
    process = p;
    suspended = false;
    LIVE.add(this);
    awaitPing(p);
  }

  private void awaitPing(Process p) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    RuntimeException last = null;
    while (true) {
      if (!p.isAlive()) {
        LIVE.remove(this);
        String tail = logTail();
        String message = "redis-server on port " + port + " exited with code " + p.exitValue()
            + " while starting (distlock needs redis-server 7.x)." + tail;
        if (tail.contains("Address already in use")) {
          throw new PortTakenException(message);
        }
        throw new IllegalStateException(message);
      }
      try (RespClient client = client(Duration.ofSeconds(1))) {
        if ("PONG".equals(client.command("PING"))) {
          long actualPid = processId(client);
          if (actualPid == p.pid()) {
            return;
          }
          last = new IllegalStateException(
              "port " + port + " is answered by another redis-server (pid " + actualPid + ")");
        }
      } catch (RuntimeException e) {
        last = e; // not listening yet, or still loading
      }
      if (System.nanoTime() - deadline > 0) {
        p.destroyForcibly();
        waitForExit(p, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
        LIVE.remove(this);
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
            + START_TIMEOUT.toSeconds() + " s." + logTail(), last);
      }
      pollPause();
    }
  }

  private static long processId(RespClient client) {
    String info = String.valueOf(client.command("INFO", "server"));
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("process_id:")) {
        return Long.parseLong(line.substring("process_id:".length()).trim());
      }
    }
    throw new IllegalStateException("INFO server has no process_id");
  }

  private Process currentProcess() {
    Process p = process;
    if (p == null) {
      throw new IllegalStateException("redis-server on port " + port + " was never started");
    }
    return p;
  }

  private void checkNotClosed() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
  }

  private void signal(String signal) {
    Process p = currentProcess();
    if (!p.isAlive()) {
      throw new IllegalStateException("redis-server on port " + port + " is not running");
    }
    ProcessBuilder kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid()))
        .redirectErrorStream(true);
    try {
      Process k = kill.start();
      if (!k.waitFor(10, TimeUnit.SECONDS)) {
        k.destroyForcibly();
        throw new IllegalStateException("kill -" + signal + " " + p.pid() + " did not finish in 10 s");
      }
      String output = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (k.exitValue() != 0) {
        throw new IllegalStateException(
            "kill -" + signal + " " + p.pid() + " failed (" + k.exitValue() + "): " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill -" + signal, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending SIG" + signal, e);
    }
  }

  /** Waits (bounded) until /proc reports the process stopped or not; no-op without /proc. */
  private static void awaitProcState(long pid, boolean stopped) {
    Path stat = Paths.get("/proc", Long.toString(pid), "stat");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() - deadline < 0) {
      String content;
      try {
        content = Files.readString(stat, StandardCharsets.US_ASCII);
      } catch (IOException | UncheckedIOException e) {
        return; // no procfs (e.g. macOS) or process gone: the signal has been delivered anyway
      }
      // "pid (comm) S ...": the state follows the last ')'
      int close = content.lastIndexOf(')');
      char state = close >= 0 && close + 2 < content.length() ? content.charAt(close + 2) : '?';
      boolean isStopped = state == 'T' || state == 't';
      if (isStopped == stopped) {
        return;
      }
      pollPause();
    }
    throw new IllegalStateException(
        "redis-server pid " + pid + " did not become " + (stopped ? "stopped" : "running") + " in 5 s");
  }

  private static boolean waitForExit(Process p, long deadlineNanos) {
    try {
      return p.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !p.isAlive();
    }
  }

  /** The harness polls an external process here; 25 ms keeps startup latency low. */
  private static void pollPause() {
    try {
      Thread.sleep(25);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for redis-server", e);
    }
  }

  private String logTail() {
    StringBuilder out = new StringBuilder();
    for (String name : List.of("redis.log", "redis.out")) {
      Path file = dir.resolve(name);
      try {
        if (!Files.exists(file)) {
          continue;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
          continue;
        }
        out.append("\n--- last lines of ").append(file).append(" ---\n");
        lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
            .forEach(line -> out.append(line).append('\n'));
      } catch (IOException | UncheckedIOException e) {
        out.append("\n(cannot read ").append(file).append(": ").append(e.getMessage()).append(')');
      }
    }
    return out.length() == 0 ? "\n(redis-server wrote no log in " + dir + ")" : out.toString();
  }

  private static void killAllOnExit() {
    for (RedisServer server : LIVE) {
      Process p = server.process;
      if (p != null) {
        p.destroyForcibly(); // SIGKILL also ends a SIGSTOPped process
      }
    }
    for (RedisServer server : LIVE) {
      Process p = server.process;
      if (p != null) {
        waitForExit(p, System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
      }
      deleteRecursively(server.dir);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on " + HOST, e);
    }
  }

  private static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // best effort: it is a temp dir
    }
  }

  // ---------------------------------------------------------------------------------------------
  // binary discovery

  /** Finds the binary from the real system property, environment and PATH. */
  static Path findRedisServer() {
    return findRedisServer(
        System.getProperty(BINARY_PROPERTY), System.getenv(BINARY_ENV), System.getenv("PATH"),
        FALLBACK_DIRS);
  }

  /**
   * Finds the binary from the given values, so that discovery is testable without global state.
   * An explicitly configured property or environment variable must name an executable file: a wrong
   * one fails instead of silently falling back to another binary.
   */
  static Path findRedisServer(String property, String env, String path, List<Path> fallbackDirs) {
    if (property != null && !property.isBlank()) {
      return explicit(Paths.get(property.trim()), "-D" + BINARY_PROPERTY + "=" + property.trim());
    }
    if (env != null && !env.isBlank()) {
      return explicit(Paths.get(env.trim()), BINARY_ENV + "=" + env.trim());
    }
    List<Path> dirs = new ArrayList<>();
    if (path != null) {
      for (String entry : path.split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          dirs.add(Paths.get(entry));
        }
      }
    }
    dirs.addAll(fallbackDirs);
    for (Path dir : dirs) {
      Path candidate = dir.resolve("redis-server");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("No redis-server binary found on PATH nor in " + fallbackDirs
        + ".\n" + installInstructions());
  }

  private static Path explicit(Path candidate, String source) {
    if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
      return candidate;
    }
    throw new IllegalStateException(
        source + " does not name an executable redis-server.\n" + installInstructions());
  }

  static String installInstructions() {
    return "The distlock Redis tests need a real redis-server binary (Redis 7.x); they never skip "
        + "when it is missing, they fail. Install one:\n"
        + "  Debian/Ubuntu: sudo apt-get install redis-server\n"
        + "  macOS:         brew install redis\n"
        + "or point -D" + BINARY_PROPERTY + "=/path/to/redis-server or the environment variable "
        + BINARY_ENV + " at one.";
  }

  /** Startup failed because another process holds the port. */
  private static final class PortTakenException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
      super(message);
    }
  }
}
