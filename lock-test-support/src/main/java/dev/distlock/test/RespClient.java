package dev.distlock.test;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A tiny, dependency-free Redis client speaking RESP2 over a plain socket, for tests that need to drive or inspect a
 * server independently of the client library under test.
 *
 * <p>Replies map to Java as follows: simple and bulk strings to {@link String} (nil to {@code null}), integers to
 * {@link Long}, arrays to {@code List<Object>} (nil array to {@code null}). A top-level error reply throws an
 * {@link IllegalStateException} carrying the server's error text; an error nested inside an array (e.g. in an
 * {@code EXEC} result) is returned as an {@link IllegalStateException} element instead. Arguments and replies are
 * UTF-8.
 *
 * <p>Every read is bounded by the timeout given to {@link #connect}; a timed-out or failed read throws
 * {@link UncheckedIOException} (wrapping e.g. {@link java.net.SocketTimeoutException}) and closes the connection,
 * since the reply stream can no longer be trusted. Calls are serialised, so an instance may be shared between
 * threads, but one command blocks the others.
 */
public final class RespClient implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * Connects to a Redis server.
     *
     * @param host host name or address
     * @param port TCP port
     * @param timeout bound for connecting and for every read of a reply
     * @return a connected client; the caller closes it
     * @throws UncheckedIOException if the connection cannot be established in time
     */
    public static RespClient connect(String host, int port, Duration timeout) {
        Objects.requireNonNull(host, "host");
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            return new RespClient(socket);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot connect to redis at " + host + ":" + port, e);
        }
    }

    /**
     * Sends one command and waits for its reply.
     *
     * @param args the command name and its arguments, e.g. {@code "SET", "k", "v"}
     * @return {@link String}, {@link Long}, {@code List<Object>} or {@code null}, as described above
     * @throws IllegalStateException with the server's error text if the server replies with an error
     * @throws UncheckedIOException if the connection fails or the read times out
     */
    public synchronized Object command(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("a command needs at least its name");
        }
        Object reply;
        try {
            writeCommand(args);
            reply = readReply();
        } catch (IOException e) {
            closeQuietly(socket); // a late reply would otherwise be read as the answer to the next command
            throw new UncheckedIOException(
                    "redis command " + args[0] + " failed on " + socket.getRemoteSocketAddress(), e);
        }
        if (reply instanceof IllegalStateException error) {
            throw new IllegalStateException(error.getMessage()); // thrown anew for the caller's stack trace
        }
        return reply;
    }

    /** Closes the connection; idempotent. */
    @Override
    public void close() {
        closeQuietly(socket);
    }

    private void writeCommand(String[] args) throws IOException {
        writeHeader('*', args.length);
        for (String arg : args) {
            byte[] bytes = Objects.requireNonNull(arg, "command argument").getBytes(StandardCharsets.UTF_8);
            writeHeader('$', bytes.length);
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
    }

    private void writeHeader(char type, int n) throws IOException {
        out.write((type + Integer.toString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** Reads one reply; error replies are returned (not thrown) so that arrays are read completely. */
    private Object readReply() throws IOException {
        int type = in.read();
        return switch (type) {
            case -1 -> throw new EOFException("connection closed by server");
            case '+' -> readLine();
            case '-' -> new IllegalStateException(readLine());
            case ':' -> Long.parseLong(readLine());
            case '$' -> readBulkString();
            case '*' -> readArray();
            default -> throw new IOException("unexpected RESP type byte: " + (char) type);
        };
    }

    private String readBulkString() throws IOException {
        int length = Integer.parseInt(readLine());
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length + 2);
        if (bytes.length != length + 2) {
            throw new EOFException("connection closed in the middle of a bulk reply");
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    private List<Object> readArray() throws IOException {
        int count = Integer.parseInt(readLine());
        if (count < 0) {
            return null;
        }
        List<Object> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(readReply());
        }
        return items;
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(32);
        while (true) {
            int b = in.read();
            if (b == -1) {
                throw new EOFException("connection closed in the middle of a reply");
            }
            if (b == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("malformed RESP line");
                }
                return line.toString(StandardCharsets.UTF_8);
            }
            line.write(b);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing useful to do
        }
    }
}
