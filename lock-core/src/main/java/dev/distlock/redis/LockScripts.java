package dev.distlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts, read once from the {@code .lua} resources beside this class, each preceded by the
 * functions they share ({@code common.lua}), and how they run on a Spring Data connection: by SHA
 * ({@code EVALSHA}), with the text sent only when Redis answers {@code NOSCRIPT}, straight on a connection of the
 * factory, without {@code RedisTemplate}'s per-call proxy and serializers. The hot path's operations also form a
 * function library ({@link #LIBRARY}), which {@link AsyncScripts} calls where the server has functions.
 */
final class LockScripts {

    static final Script ACQUIRE = load("acquire.lua", "acquire", ReturnType.MULTI, 3);
    static final Script LEAVE = load("leave.lua", "leave", ReturnType.MULTI, 3);
    static final Script TAKE_PERMITS = load("take_permits.lua", "take_permits", ReturnType.MULTI, 3);
    /** A downgrade, rare: outside the {@link #LIBRARY}. */
    static final Script KEEP_PERMITS = load("keep_permits.lua", "keep_permits", ReturnType.MULTI, 3);
    static final Script RELEASE = load("release.lua", "release_lock", ReturnType.MULTI, 3);
    static final Script ABANDON = load("abandon.lua", "abandon", ReturnType.MULTI, 3);
    /** Runs acquire.lua's function too: its text carries that file as well (the library has it already). */
    static final Script PASS_ON = load("pass_on.lua", "pass_on", ReturnType.MULTI, 3, "acquire.lua");
    static final Script EXTEND = load("extend.lua", "extend", ReturnType.INTEGER, 1);
    /** Its number of keys varies: it is given its keys apart from its arguments ({@link ScriptArguments#renewAll}). */
    static final Script RENEW_ALL = load("renew_all.lua", "renew_all", ReturnType.MULTI, 0);
    static final Script REMAINING = load("remaining.lua", "remaining", ReturnType.INTEGER, 1);
    static final Script RAISE = load("raise.lua", "raise", ReturnType.INTEGER, 1);
    /** An operator's call, outside the {@link #LIBRARY} (whose code, and so its name, stays as it was). */
    static final Script FORCE_RELEASE = load("force_release.lua", "force_release", ReturnType.MULTI, 3);
    static final Script INSPECT = load("inspect.lua", "inspect", ReturnType.MULTI, 3);
    static final Script HELD = load("held.lua", "held", ReturnType.INTEGER, 1);
    static final Script ANNOUNCE = load("announce.lua", "announce", ReturnType.INTEGER, 1);
    static final Script ANNOUNCEMENT = load("announcement.lua", "announcement", ReturnType.MULTI, 1);

    /**
     * The operations of the hot path as one Redis function library, for {@code FCALL} on Redis 7 and Valkey: loaded
     * once per server, it spares each call the shared functions' definitions that every {@code EVALSHA} runs again.
     * Releases, renewals and leaving the queue may run when Redis is out of memory ({@code allow-oom}): they free
     * memory or keep a hold, as their scripts did.
     */
    static final FunctionLibrary LIBRARY = FunctionLibrary.of(read("common.lua"),
            List.of(ACQUIRE, PASS_ON, TAKE_PERMITS),
            List.of(RELEASE, ABANDON, LEAVE, EXTEND, RENEW_ALL), List.of(REMAINING));

    private LockScripts() {
    }

    /** Reads the scripts, if not done yet: the class's initialization does it. */
    static void load() {
        // nothing more: calling this initializes the class
    }

    /**
     * One script: the Lua function {@code function} defined in {@code file}, run by {@code EVALSHA} as {@code text}
     * (the shared functions, the file, and a call of the function), or by {@code FCALL} from {@link #LIBRARY}. The
     * first {@code keyCount} of the keys and arguments it is given are keys: the lock's, and the queue's where the
     * script may touch the queue.
     */
    record Script(String file, String function, String body, byte[] text, String sha1, ReturnType returnType,
            int keyCount) {

        /**
         * Runs the script on a connection of {@code factory}.
         *
         * @param keysAndArgs the keys, then the arguments
         * @return a {@code List} of {@code Long} for multi-bulk replies, a {@code Long} for integer replies
         */
        <T> T run(RedisConnectionFactory factory, byte[]... keysAndArgs) {
            return runWithKeys(factory, keyCount, keysAndArgs);
        }

        /** Runs the script with the first {@code keys} of {@code keysAndArgs} as its keys, however many it has. */
        <T> T runWithKeys(RedisConnectionFactory factory, int keys, byte[]... keysAndArgs) {
            try (RedisConnection connection = factory.getConnection()) {
                return run(connection, keys, keysAndArgs);
            }
        }

        /** Runs the script on {@code connection}; see {@link #run(RedisConnectionFactory, byte[]...)}. */
        <T> T run(RedisConnection connection, byte[]... keysAndArgs) {
            return run(connection, keyCount, keysAndArgs);
        }

        @SuppressWarnings("unchecked")
        private <T> T run(RedisConnection connection, int keys, byte[]... keysAndArgs) {
            try {
                return (T) connection.scriptingCommands().evalSha(sha1, returnType, keys, keysAndArgs);
            } catch (RuntimeException ex) {
                if (!isNoScript(ex)) {
                    throw ex;
                }
                return (T) connection.scriptingCommands().eval(text, returnType, keys, keysAndArgs);
            }
        }

        /**
         * Runs the script and then {@code WAIT replicas timeout} on {@code connection}, in one round trip:
         * pipelined, so the connection is a dedicated one ({@link PipelineConnections}) and {@code WAIT} blocks
         * no other thread's commands.
         *
         * @return the script's reply and how many replicas acknowledged the writes so far
         */
        @SuppressWarnings("unchecked")
        <T> Acknowledged<T> runAndWait(RedisConnection connection, int replicas, long timeoutMillis,
                byte[]... keysAndArgs) {
            byte[] wantedReplicas = Integer.toString(replicas).getBytes(StandardCharsets.UTF_8);
            byte[] timeout = Long.toString(timeoutMillis).getBytes(StandardCharsets.UTF_8);
            boolean byText = false;
            while (true) {
                connection.openPipeline();
                if (byText) {
                    connection.scriptingCommands().eval(text, returnType, keyCount, keysAndArgs);
                } else {
                    connection.scriptingCommands().evalSha(sha1, returnType, keyCount, keysAndArgs);
                }
                WaitCommand.send(connection, wantedReplicas, timeout);
                try {
                    List<Object> replies = connection.closePipeline();
                    return new Acknowledged<>((T) replies.get(0), ((Number) replies.get(1)).intValue());
                } catch (RedisPipelineException failure) {
                    boolean noScript = isNoScript(failure) || failure.getPipelineResult().stream()
                            .anyMatch(result -> result instanceof Throwable error && isNoScript(error));
                    if (byText || !noScript) {
                        throw failure;
                    }
                    byText = true;
                }
            }
        }
    }

    /** Whether Redis answered {@code NOSCRIPT}: the script is not cached there (yet), send its text. */
    static boolean isNoScript(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A script's reply and how many replicas had acknowledged the connection's writes when {@code WAIT} returned.
     *
     * @param <T> the reply's type
     */
    record Acknowledged<T>(T reply, int replicas) {
    }

    /**
     * The function {@code function} of {@code file}, preceded by the functions of {@code common.lua} and of the
     * scripts {@code uses} (whose functions it calls).
     */
    private static Script load(String file, String function, ReturnType returnType, int keyCount, String... uses) {
        String body = read(file);
        StringBuilder preceding = new StringBuilder(read("common.lua"));
        for (String used : uses) {
            preceding.append(read(used)).append('\n');
        }
        String text = preceding + body + "\nreturn " + function + "(KEYS, ARGV)\n";
        return new Script(file, function, body, text.getBytes(StandardCharsets.UTF_8), RedisScript.of(text).getSha1(),
                returnType, keyCount);
    }

    static String read(String file) {
        try (InputStream in = LockScripts.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + file + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not read Lua script " + file, ex);
        }
    }
}
