package dev.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The temporary working directory of one {@link RedisServer}: its log files, kept across restarts. */
final class RedisDir {

    private static final int LOG_TAIL_LINES = 40;

    private final Path path;

    private RedisDir(Path path) {
        this.path = path;
    }

    /** Creates a new, empty temporary directory. */
    static RedisDir create() {
        try {
            return new RedisDir(Files.createTempDirectory("distlock-redis-"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for redis-server", e);
        }
    }

    Path path() {
        return path;
    }

    /** The server's own log ({@code --logfile}). */
    Path log() {
        return path.resolve("redis.log");
    }

    /** The configuration file given to the server, if it has one ({@code redis.conf}). */
    Path config() {
        return path.resolve("redis.conf");
    }

    /** Standard output and error of the process: messages written before the log file is open. */
    Path out() {
        return path.resolve("redis.out");
    }

    /** The last lines of both log files, to explain a failed start. */
    String tail() {
        StringBuilder text = new StringBuilder();
        for (Path file : List.of(log(), out())) {
            try {
                if (!Files.exists(file)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (lines.isEmpty()) {
                    continue;
                }
                text.append("\n--- last lines of ").append(file).append(" ---\n");
                lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
                        .forEach(line -> text.append(line).append('\n'));
            } catch (IOException | UncheckedIOException e) {
                text.append("\n(cannot read ").append(file).append(": ").append(e.getMessage()).append(')');
            }
        }
        return text.length() == 0 ? "\n(redis-server wrote no log in " + path + ")" : text.toString();
    }

    /** Deletes the directory and its content; best effort, as it is a temporary directory. */
    void delete() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
