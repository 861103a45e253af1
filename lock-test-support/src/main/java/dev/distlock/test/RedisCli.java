package dev.distlock.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code redis-cli} (e.g. {@code --cluster create} or {@code --cluster reshard}) with a bounded wait. The binary
 * is found through the system property {@value #CLI_PROPERTY}, the environment variable {@value #CLI_ENV}, {@code PATH}
 * and the usual directories; redis-cli 7.x also drives Redis 6 and Valkey servers.
 */
public final class RedisCli {

    /** System property naming the {@code redis-cli} binary to use. */
    public static final String CLI_PROPERTY = "distlock.redis-cli";

    /** Environment variable naming the {@code redis-cli} binary to use. */
    public static final String CLI_ENV = "REDIS_CLI_BIN";

    private final Path executable;

    private RedisCli(Path executable) {
        this.executable = executable;
    }

    /**
     * Finds {@code redis-cli}.
     *
     * @return the tool
     * @throws IllegalStateException with installation instructions if there is none
     */
    public static RedisCli find() {
        String configured = System.getProperty(CLI_PROPERTY, System.getenv(CLI_ENV));
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured.trim());
            if (!RedisBinaryLocator.isExecutableFile(path)) {
                throw new IllegalStateException(CLI_PROPERTY + " / " + CLI_ENV + " = " + configured
                        + " does not name an executable redis-cli");
            }
            return new RedisCli(path);
        }
        return new RedisCli(RedisBinaryLocator.onPath("redis-cli", System.getenv("PATH"), RedisBinaryLocator.FALLBACK_DIRS)
                .orElseThrow(() -> new IllegalStateException("No redis-cli found on PATH nor in "
                        + RedisBinaryLocator.FALLBACK_DIRS + ". Install it (Debian/Ubuntu: sudo apt-get install redis-tools; "
                        + "macOS: brew install redis) or point -D" + CLI_PROPERTY + " or " + CLI_ENV + " at one.")));
    }

    /** The executable. */
    public Path executable() {
        return executable;
    }

    /**
     * Runs {@code redis-cli} with the given arguments and waits for it, at most {@code timeout}.
     *
     * @param timeout bound of the whole run; the process is killed when it runs longer
     * @param args e.g. {@code "--cluster", "reshard", "127.0.0.1:7000", ...}
     * @return what it printed (standard output and error)
     * @throws IllegalStateException if it exits with a non-zero code or runs too long, with what it printed
     */
    public String run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(Arrays.asList(args));
        Path output = null;
        try {
            output = Files.createTempFile("distlock-redis-cli-", ".out");
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            process.getOutputStream().close();
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (!exited || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command)
                        + (exited ? " failed with exit code " + process.exitValue() : " did not finish in " + timeout)
                        + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }
}
