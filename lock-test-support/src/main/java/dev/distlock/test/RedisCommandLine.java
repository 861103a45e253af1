package dev.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link RedisServer} is launched: which binary, an optional configuration file and extra command-line options.
 * The command line always binds {@code 127.0.0.1} on the given port, turns persistence off, writes the log into the
 * server's directory and, on Redis 7.0 and later, allows {@code DEBUG}; the extra options come last and win.
 */
record RedisCommandLine(RedisBinary binary, List<String> configLines, List<String> extraArgs) {

    RedisCommandLine {
        configLines = configLines == null ? null : List.copyOf(configLines);
        extraArgs = List.copyOf(extraArgs);
    }

    /** Writes the configuration file into the directory, if there is one; the server may rewrite it later. */
    void writeConfig(RedisDir dir) {
        if (configLines == null) {
            return;
        }
        try {
            Files.write(dir.config(), configLines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.config(), e);
        }
    }

    /** The full command line for a server on {@code port} working in {@code dir}. */
    List<String> command(int port, RedisDir dir) {
        List<String> command = new ArrayList<>();
        command.add(binary.executable().toString());
        if (configLines != null) {
            command.add(dir.config().toString()); // the configuration file must be the first argument
        }
        command.addAll(List.of(
                "--port", Integer.toString(port),
                "--bind", RedisProcess.HOST,
                "--save", "",
                "--appendonly", "no"));
        if (binary.isAtLeastRedis(7, 0)) {
            command.addAll(List.of("--enable-debug-command", "yes"));
        }
        command.addAll(List.of(
                "--dir", dir.path().toString(),
                "--logfile", dir.log().toString(),
                "--daemonize", "no"));
        command.addAll(extraArgs);
        return command;
    }
}
