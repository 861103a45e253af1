package dev.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Bounded operations on OS processes: signals, {@code /proc} state and waits. */
final class Processes {

    private static final long KILL_TIMEOUT_SECONDS = 10;
    private static final long STATE_TIMEOUT_SECONDS = 5;

    private Processes() {
    }

    /** Sends a signal ({@code "STOP"}, {@code "CONT"}) with {@code kill}, which Java's Process API cannot do. */
    static void signal(long pid, String signal) {
        String command = "kill -" + signal + " " + pid;
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(KILL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException(command + " did not finish in " + KILL_TIMEOUT_SECONDS + " s");
            }
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.exitValue() != 0) {
                throw new IllegalStateException(command + " failed (" + kill.exitValue() + "): " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal, e);
        }
    }

    /** Waits (bounded) until {@code /proc} reports the process stopped or not; returns at once without procfs. */
    static void awaitStopped(long pid, boolean stopped) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STATE_TIMEOUT_SECONDS);
        while (System.nanoTime() - deadline < 0) {
            String content;
            try {
                content = Files.readString(stat, StandardCharsets.US_ASCII);
            } catch (IOException | UncheckedIOException e) {
                return; // no procfs (e.g. macOS) or process gone: the signal has been delivered anyway
            }
            // "pid (comm) S ...": the state follows the last ')', as comm may contain anything
            int close = content.lastIndexOf(')');
            char state = close >= 0 && close + 2 < content.length() ? content.charAt(close + 2) : '?';
            if ((state == 'T' || state == 't') == stopped) {
                return;
            }
            pollPause();
        }
        throw new IllegalStateException("redis-server pid " + pid + " did not become "
                + (stopped ? "stopped" : "running") + " in " + STATE_TIMEOUT_SECONDS + " s");
    }

    /** Waits until the process has exited or the deadline ({@link System#nanoTime()}) passed; true if exited. */
    static boolean waitForExit(Process process, long deadlineNanos) {
        try {
            return process.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** One step of polling an external process; 25 ms keeps startup latency low. */
    static void pollPause() {
        try {
            Thread.sleep(25);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }
}
