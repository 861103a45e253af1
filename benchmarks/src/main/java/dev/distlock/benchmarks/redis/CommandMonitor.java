package dev.distlock.benchmarks.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Watches Redis's {@code MONITOR} stream between two marker commands and counts what clients sent (top-level
 * commands: one round trip each for a client that waits for every reply) apart from what scripts ran inside
 * ({@code [0 lua]} lines). MONITOR slows the server down, so this is never used during timed runs.
 */
public final class CommandMonitor implements AutoCloseable {

    private static final String LUA_SOURCE = " lua] ";
    /** A quoted argument of a MONITOR line (unrolled and possessive: no stack per character of a long one). */
    private static final Pattern QUOTED = Pattern.compile("\"([^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+)\"");
    private static final Set<String> OPTIONS = Set.of("NX", "XX", "PX", "GET", "GT", "LT", "KEEPTTL");

    private final Socket socket;
    private final BufferedReader in;
    private final String marker;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Map<String, Long> topLevel = new TreeMap<>();
    private final Map<String, Long> inScripts = new TreeMap<>();
    private final List<String> sequence = new ArrayList<>();
    private final Thread reader;
    private volatile IOException failure;

    private CommandMonitor(Socket socket, String marker) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.marker = marker;
        this.reader = new Thread(this::read, "bench-monitor");
        this.reader.setDaemon(true);
    }

    /**
     * Starts monitoring; counting begins at the command {@code ECHO <marker>-start} and ends at
     * {@code ECHO <marker>-end}, which the caller sends on another connection.
     */
    public static CommandMonitor start(String host, int port, String marker) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(60_000);
            CommandMonitor monitor = new CommandMonitor(socket, marker);
            OutputStream out = socket.getOutputStream();
            out.write("*1\r\n$7\r\nMONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String ok = monitor.in.readLine();
            if (!"+OK".equals(ok)) {
                throw new IOException("MONITOR answered " + ok);
            }
            monitor.reader.start();
            return monitor;
        } catch (IOException ex) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot monitor redis at " + host + ":" + port, ex);
        }
    }

    /** Waits until the end marker went by; returns false if it did not within the timeout. */
    public boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
        boolean seen = ended.await(timeout, unit);
        if (failure != null) {
            throw new UncheckedIOException("reading the MONITOR stream failed", failure);
        }
        return seen;
    }

    /** Commands clients sent between the markers, by lower-case name (the markers excluded). */
    public synchronized Map<String, Long> topLevel() {
        return Map.copyOf(topLevel);
    }

    /**
     * The commands between the markers in the order Redis ran them, each as {@link #shortForm}: a client's at the
     * left, a script's indented by two spaces.
     */
    public synchronized List<String> sequence() {
        return List.copyOf(sequence);
    }

    /** Commands scripts ran between the markers, by lower-case name. */
    public synchronized Map<String, Long> inScripts() {
        return Map.copyOf(inScripts);
    }

    private void read() {
        boolean counting = false;
        try {
            String line;
            while ((line = in.readLine()) != null) {
                String command = commandName(line);
                if (line.contains("\"" + marker + "-start\"")) {
                    counting = true;
                } else if (line.contains("\"" + marker + "-end\"")) {
                    ended.countDown();
                    return;
                } else if (counting && command != null) {
                    count(line.contains(LUA_SOURCE) ? inScripts : topLevel, command, line);
                }
            }
        } catch (IOException ex) {
            if (!socket.isClosed()) {
                failure = ex;
            }
        } finally {
            ended.countDown();
        }
    }

    private synchronized void count(Map<String, Long> counts, String command, String line) {
        counts.merge(command, 1L, Long::sum);
        sequence.add((counts == inScripts ? "  " : "") + shortForm(line));
    }

    /**
     * A MONITOR line's command as the sequences show it: its name, the function or script it calls (a library's
     * hash left out), and the options among its arguments ({@code NX}, {@code GT}, ...); no keys, no values.
     */
    static String shortForm(String line) {
        List<String> words = new ArrayList<>();
        Matcher quoted = QUOTED.matcher(line.substring(line.indexOf("] \"") + 2));
        while (quoted.find()) {
            words.add(quoted.group(1));
        }
        StringBuilder form = new StringBuilder(words.get(0).toUpperCase(Locale.ROOT));
        if (words.get(0).equalsIgnoreCase("fcall") && words.size() > 1) {
            form.append(' ').append(words.get(1).replaceFirst("^distlock_[0-9a-f]+_", ""));
        }
        words.stream().skip(1).map(word -> word.toUpperCase(Locale.ROOT)).filter(OPTIONS::contains)
                .forEach(option -> form.append(' ').append(option));
        return form.toString();
    }

    /** The command of a line like {@code +1700000000.123 [0 127.0.0.1:5000] "SET" "k" "v"}. */
    static String commandName(String line) {
        int bracket = line.indexOf("] \"");
        if (!line.startsWith("+") || bracket < 0) {
            return null;
        }
        int start = bracket + 3;
        int end = line.indexOf('"', start);
        return end < 0 ? null : line.substring(start, end).toLowerCase(Locale.ROOT);
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do with it
        }
    }
}
