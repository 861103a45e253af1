package dev.distlock.test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run by the build before this module's integration tests ({@code pre-integration-test}, see the pom): makes sure
 * every named server the tests run on ({@value RedisBinary#REDIS_6_0}, {@value RedisBinary#VALKEY_8_0}) can be found,
 * so that {@code ./mvnw verify} needs nothing fetched beforehand. A server the locator already finds (configured by
 * {@code -Ddistlock.redis-server.<name>}, {@code REDIS_SERVER_BIN_<NAME>} or fetched earlier) is left alone; the
 * others are fetched by {@value RedisBinary#FETCH_SCRIPT}, which works on Debian-like systems. Where that fails the
 * build stops at once with a message naming the missing server and how to provide it: the tests on it would fail
 * anyway, and they are never skipped.
 *
 * <p>Does nothing when tests are skipped ({@code -DskipTests}, {@code -DskipITs}, {@code -Dmaven.test.skip}).
 */
public final class FetchMissingServers {

    static final List<String> NAMES = List.of(RedisBinary.REDIS_6_0, RedisBinary.VALKEY_8_0);
    private static final long FETCH_TIMEOUT_MINUTES = 10;

    private FetchMissingServers() {
    }

    /**
     * Fetches the missing servers.
     *
     * @param args the fetch script's path
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (testsSkipped()) {
            return;
        }
        List<String> missing = new ArrayList<>();
        for (String name : NAMES) {
            try {
                RedisBinaryLocator.findNamed(name);
            } catch (IllegalStateException notFound) {
                if (configured(name)) {
                    throw notFound; // a wrong explicit setting is reported as it is, never fetched around
                }
                missing.add(name);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        fetch(Path.of(args[0]).normalize(), missing);
        for (String name : missing) {
            RedisBinaryLocator.findNamed(name); // what the script claims to have fetched must now be found
        }
    }

    private static void fetch(Path script, List<String> names) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(names);
        System.out.println("Fetching the servers the tests also run on: " + String.join(" ", names));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        // the script's lines go to the build log as they come
        process.getInputStream().transferTo(System.out);
        boolean ended = process.waitFor(FETCH_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        if (!ended || process.exitValue() != 0) {
            StringBuilder message = new StringBuilder(ended
                    ? script + " failed (exit " + process.exitValue() + ", its output is above)."
                    : script + " did not finish within " + FETCH_TIMEOUT_MINUTES + " minutes.");
            for (String name : names) {
                message.append("\n\nMissing: ").append(name).append(". ").append(RedisBinaryLocator.fetchInstructions(name));
            }
            throw new IllegalStateException(message.toString());
        }
    }

    private static boolean configured(String name) {
        return isSet(System.getProperty(RedisServer.BINARY_PROPERTY + "." + name))
                || isSet(System.getenv(RedisBinaryLocator.envName(name)));
    }

    private static boolean testsSkipped() {
        return isTrue("skipTests") || isTrue("skipITs") || isTrue("maven.test.skip");
    }

    private static boolean isTrue(String property) {
        String value = System.getProperty(property);
        return value != null && (value.isEmpty() || Boolean.parseBoolean(value));
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
