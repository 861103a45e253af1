package dev.distlock.samples.inventory.demo;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/** The instances of one demo run: started together, given rounds together, stopped together. */
final class DemoInstances implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(5);

    private final List<InstanceProcess> instances;
    private final PrintStream console;
    /** Ends the instances if the launcher's JVM is stopped (Ctrl-C) before {@link #close()}. */
    private final Thread killer;

    private DemoInstances(List<InstanceProcess> instances, PrintStream console) {
        this.instances = instances;
        this.console = console;
        this.killer = new Thread(() -> instances.forEach(InstanceProcess::kill), "demo-instances-killer");
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /**
     * Starts {@code settings.instances()} JVMs running {@link DemoInstance} on this JVM's class path, all on
     * the database at {@code databaseUrl}, and waits until each is ready.
     */
    static DemoInstances start(DemoSettings settings, String databaseUrl, PrintStream console)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // short runs: start fast and stay small rather than reach peak speed
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
                DemoInstance.class.getName(),
                "--spring.datasource.url=" + databaseUrl));
        settings.redis().forEach((name, value) -> command.add("--" + name + "=" + value));
        String classPath = classPath();
        List<InstanceProcess> started = new ArrayList<>();
        DemoInstances instances = new DemoInstances(started, console);
        try {
            for (int number = 1; number <= settings.instances(); number++) {
                started.add(InstanceProcess.start(number, command, classPath, console));
            }
            await(CompletableFuture.allOf(started.stream().map(InstanceProcess::ready)
                    .toArray(CompletableFuture[]::new)), START_TIMEOUT, "the instances to start", () -> { });
            return instances;
        } catch (IOException | InterruptedException | RuntimeException ex) {
            instances.close();
            throw ex;
        }
    }

    /**
     * Has every instance run {@code request} and returns their results, showing progress every second.
     *
     * @param title the round's name in the progress lines
     * @param total reservations of all instances together
     */
    List<RoundResult> run(RoundRequest request, String title, long total) throws InterruptedException {
        List<CompletableFuture<RoundResult>> results = instances.stream()
                .map(instance -> instance.startRound(request)).toList();
        Runnable showProgress = () -> console.printf(Locale.US, "  %-18s %,9d / %,d reservations%n", title,
                instances.stream().mapToLong(InstanceProcess::progress).sum(), total);
        await(CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)), ROUND_TIMEOUT,
                "the round " + title, showProgress);
        showProgress.run();
        return results.stream().map(CompletableFuture::join).toList();
    }

    /** Asks every instance to quit, then waits for each (a bounded time, then by force). */
    @Override
    public void close() {
        instances.forEach(InstanceProcess::requestQuit);
        instances.forEach(InstanceProcess::close);
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway; the instances have exited
        }
    }

    /** Whether any instance is still running. */
    boolean anyAlive() {
        return instances.stream().anyMatch(InstanceProcess::isAlive);
    }

    /** Waits for {@code done}, at most {@code timeout}, running {@code everySecond} while it waits. */
    private static void await(CompletableFuture<?> done, Duration timeout, String what, Runnable everySecond)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                done.get(1, TimeUnit.SECONDS);
                return;
            } catch (TimeoutException notYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("gave up waiting for " + what + " after " + timeout);
                }
                everySecond.run();
            } catch (ExecutionException ex) {
                throw new IllegalStateException("while waiting for " + what + ": " + ex.getCause().getMessage(),
                        ex.getCause());
            }
        }
    }

    /**
     * The class path of this application. Run by {@code exec:java}, it is that of the class loader Maven built
     * for the project, not {@code java.class.path} (Maven's own); run by {@code java} or a test, the latter.
     */
    private static String classPath() {
        if (DemoInstances.class.getClassLoader() instanceof URLClassLoader loader) {
            return Arrays.stream(loader.getURLs()).map(DemoInstances::toPath)
                    .collect(Collectors.joining(File.pathSeparator));
        }
        return System.getProperty("java.class.path");
    }

    private static String toPath(URL url) {
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException ex) {
            throw new IllegalStateException("not a file on the class path: " + url, ex);
        }
    }
}
