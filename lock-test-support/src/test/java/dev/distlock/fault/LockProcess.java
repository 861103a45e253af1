package dev.distlock.fault;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running {@link LockProcessMain}: a process of its own that the test can command, kill with
 * SIGKILL and pause with SIGSTOP. Every wait for its answers is bounded.
 */
final class LockProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String label;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());

    private LockProcess(String label, Process process) {
        this.label = label;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readOutput, "output of " + label);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a process on the lock {@code name} of the Redis at {@code port}, and waits until it is ready.
     *
     * @param lease its lease; renewed if {@code renewed}
     * @param poll its waiters' poll interval
     */
    static LockProcess start(String label, int port, String name, Duration lease, boolean renewed, Duration poll) {
        return start(label, port, name, lease, renewed, poll, "");
    }

    /**
     * As {@link #start(String, int, String, Duration, boolean, Duration)}, on what {@code claim} says instead of the
     * lock, if not empty: a number of permits (the process holds one of them), or {@code read} or {@code write} (a
     * side of the name's read-write lock).
     */
    static LockProcess start(String label, int port, String name, Duration lease, boolean renewed, Duration poll,
            String claim) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                LockProcessMain.class.getName(), Integer.toString(port), name, Long.toString(lease.toMillis()),
                renewed ? "renewed" : "fixed", Long.toString(poll.toMillis())));
        if (!claim.isEmpty()) {
            command.add(claim);
        }
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot start " + label, ex);
        }
        LockProcess started = new LockProcess(label, process);
        started.expect("ready", START_TIMEOUT);
        return started;
    }

    /** How long a test waits for an answer, or for a condition on the server. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    /** One try ({@code lock 0}), which must acquire: the fencing token. */
    long acquireAtOnce() {
        send("lock 0");
        return fence(expect("acquired", ANSWER_TIMEOUT));
    }

    /** Waits until {@code condition} holds, at most {@link #ANSWER_TIMEOUT}. */
    static void awaitUntil(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + ANSWER_TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within " + ANSWER_TIMEOUT);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Sends a command without waiting for its answer. */
    void send(String command) {
        try {
            commands.write(command + "\n");
            commands.flush();
        } catch (IOException ex) {
            throw new UncheckedIOException(label + " does not take commands", ex);
        }
    }

    /** The next answer, waiting at most {@code timeout}; fails the test if none comes. */
    String answer(Duration timeout) {
        try {
            String answer = answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (answer == null) {
                throw new AssertionError(label + " gave no answer within " + timeout);
            }
            return answer;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    /** Whether an answer has come (without taking it). */
    boolean hasAnswer() {
        return !answers.isEmpty();
    }

    /** Waits for the next answer and checks that it starts with {@code prefix}; returns it. */
    String expect(String prefix, Duration timeout) {
        String answer = answer(timeout);
        if (!answer.startsWith(prefix)) {
            throw new AssertionError(label + " answered '" + answer + "', expected '" + prefix + "...'");
        }
        return answer;
    }

    /** The fencing token of an {@code acquired <token>} or {@code write <token>} answer. */
    static long fence(String answer) {
        return Long.parseLong(answer.substring(answer.indexOf(' ') + 1));
    }

    /** The loss reports heard so far ({@code lost <fencing token>}). */
    List<String> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL: the process dies at once, without running anything. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP: the process stops where it is, like a long GC pause or a frozen VM. */
    void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        signal("CONT");
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            signal("CONT");
            kill();
        }
    }

    @Override
    public String toString() {
        return label + " (pid " + process.pid() + ")";
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private void readOutput() {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (!line.startsWith(LockProcessMain.ANSWER)) {
                    System.out.println("[" + label + "] " + line); // its logging, into the test's output
                    continue;
                }
                String answer = line.substring(LockProcessMain.ANSWER.length());
                if (answer.startsWith("event ")) {
                    events.add(answer.substring("event ".length()));
                } else {
                    answers.add(answer);
                }
            }
        } catch (IOException ended) {
            // the process died
        }
    }
}
