package dev.distlock.samples.inventory.demo;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server the demo starts for itself when no Redis answers where it looks by default: the binary named by
 * {@code -Ddistlock.redis-server} or {@code REDIS_SERVER_BIN}, else {@code redis-server} on {@code PATH}, on a free
 * loopback port, without persistence, stopped when the demo ends. The same prerequisite as the test suite's.
 */
final class DemoRedisServer implements AutoCloseable {

    static final String BINARY_PROPERTY = "distlock.redis-server";
    static final String BINARY_ENV = "REDIS_SERVER_BIN";
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Process process;
    private final int port;

    private DemoRedisServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The redis-server binary to start, if one is named or on {@code PATH}. */
    static Optional<Path> binary() {
        String named = System.getProperty(BINARY_PROPERTY);
        if (named == null || named.isBlank()) {
            named = System.getenv(BINARY_ENV);
        }
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named.trim())).filter(Files::isExecutable);
        }
        String path = System.getenv("PATH");
        return path == null ? Optional.empty()
                : List.of(path.split(File.pathSeparator)).stream().filter(dir -> !dir.isEmpty())
                        .map(dir -> Path.of(dir, "redis-server")).filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts {@code binary} on a free loopback port and waits (10 s at most) until it answers a PING.
     *
     * @throws IOException if it cannot be started or does not answer in time (it is stopped then)
     */
    static DemoRedisServer start(Path binary) throws IOException, InterruptedException {
        int port = freePort();
        Process process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        DemoRedisServer server = new DemoRedisServer(process, port);
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        while (!server.answersPing()) {
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                server.close();
                throw new IOException(binary + " did not start answering on 127.0.0.1:" + port + " within 10 s"
                        + (process.isAlive() ? "" : " (exit status " + process.exitValue() + ")"));
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling a process we cannot be told about: nothing to await
        }
        return server;
    }

    /** The port it listens on, on 127.0.0.1. */
    int port() {
        return port;
    }

    private boolean answersPing() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(7);
            return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Stops the server, waiting (5 s at most) for it to exit, then forcibly. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
