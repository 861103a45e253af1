package dev.distlock.samples.inventory.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One running {@link DemoInstance}, as the launcher sees it: a child process whose standard input takes
 * {@link RoundRequest}s and whose output is read on a thread of its own. Protocol lines complete
 * {@link #ready()} and the current round and update {@link #progress()}; every other line is shown with
 * the instance's number in front.
 */
final class InstanceProcess implements AutoCloseable {

    private final int number;
    private final Process process;
    private final Writer commands;
    private final PrintStream console;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile CompletableFuture<RoundResult> round = CompletableFuture.completedFuture(null);
    private volatile long progress;
    private boolean quitRequested;

    private InstanceProcess(int number, Process process, PrintStream console) {
        this.number = number;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.console = console;
    }

    /**
     * Starts the instance.
     *
     * @param number its number, from 1, shown in front of its output
     * @param command the {@code java} command line, with the class path in the {@code CLASSPATH} variable
     */
    static InstanceProcess start(int number, List<String> command, String classPath, PrintStream console)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // the environment rather than -cp: no limit on the command line's length (Windows has one)
        builder.environment().put("CLASSPATH", classPath);
        InstanceProcess instance = new InstanceProcess(number, builder.start(), console);
        Thread reader = new Thread(instance::readOutput, "demo-instance-" + number + "-output");
        reader.setDaemon(true);
        reader.start();
        return instance;
    }

    /** Completes when the instance has started and waits for rounds; fails if it exits first. */
    CompletableFuture<Void> ready() {
        return ready;
    }

    /** Sends the request; the result completes when the instance reports it, or fails if it exits first. */
    CompletableFuture<RoundResult> startRound(RoundRequest request) {
        progress = 0;
        round = new CompletableFuture<>();
        send(request.toLine());
        return round;
    }

    /** Reservations attempted so far in the current round. */
    long progress() {
        return progress;
    }

    /** Whether the process is still running. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the instance to quit, without waiting for it; once only. */
    synchronized void requestQuit() {
        if (quitRequested) {
            return;
        }
        quitRequested = true;
        try {
            send(DemoProtocol.QUIT);
            commands.close();
        } catch (IOException | UncheckedIOException alreadyGone) {
            // the process has exited: nothing to ask
        }
    }

    /** Asks the instance to quit and waits for it, a bounded time; then ends it by force. */
    @Override
    public void close() {
        requestQuit();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the process at once: for a launcher that is itself being stopped. */
    void kill() {
        process.destroyForcibly();
    }

    private void send(String line) {
        try {
            commands.write(line + "\n");
            commands.flush();
        } catch (IOException ex) {
            throw new UncheckedIOException("instance " + number + " does not take commands any more", ex);
        }
    }

    private void readOutput() {
        try (BufferedReader output = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith(DemoProtocol.PREFIX)) {
                    handle(line.substring(DemoProtocol.PREFIX.length()));
                } else {
                    console.println("  [instance " + number + "] " + line);
                }
            }
        } catch (IOException | RuntimeException ex) {
            console.println("  [instance " + number + "] output unreadable: " + ex);
        }
        IllegalStateException exited = new IllegalStateException("instance " + number + " exited" + exitCode());
        ready.completeExceptionally(exited);
        round.completeExceptionally(exited);
    }

    private void handle(String message) {
        if (message.equals(DemoProtocol.READY)) {
            ready.complete(null);
        } else if (message.startsWith(DemoProtocol.PROGRESS)) {
            progress = Long.parseLong(message.substring(DemoProtocol.PROGRESS.length()));
        } else if (message.startsWith(DemoProtocol.RESULT)) {
            round.complete(RoundResult.parse(message.substring(DemoProtocol.RESULT.length())));
        }
    }

    private String exitCode() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? " with code " + process.exitValue() : "";
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
