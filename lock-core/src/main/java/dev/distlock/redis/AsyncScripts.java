package dev.distlock.redis;

import dev.distlock.core.runtime.DaemonThreads;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Runs the lock's scripts without blocking a thread, on Lettuce's native asynchronous API over the connection
 * that a {@link LettuceConnectionFactory} shares between all its users (its default): as functions of
 * {@link LockScripts#LIBRARY} ({@code FCALL}) on a standalone or Sentinel-managed Redis 7 or Valkey, else by SHA
 * ({@code EVALSHA}, on Redis 6 and on a cluster), with the text sent only when Redis answers {@code NOSCRIPT}; each
 * call bounded by the factory's command timeout. The factory hands
 * its connection out only by blocking (it connects on first use, and again after a reset), so whenever no open
 * connection is kept, it is asked for one on a thread of this class's own, never on the caller's. Only made for
 * such a factory ({@link #of}); a pooled Lettuce factory or Jedis has no shared connection to send on, and their
 * scripts run through {@link LockScripts.Script#run} on the caller's thread.
 */
final class AsyncScripts {

    /**
     * Where the factory is asked for its connection: one daemon thread per factory (a factory that cannot connect
     * holds up no other), made when needed and gone after a minute idle, so that nothing needs closing; its queue
     * takes work without a lock, so a caller handing it over never parks.
     */
    private final ThreadPoolExecutor connecting = DaemonThreads.pool("distlock-connect", 1, 60);

    private final LettuceConnectionFactory factory;
    /**
     * How long a call may take before it fails here; 0 when Lettuce times its commands out itself (Spring Data's
     * default), which costs no timer task per call (a task whose cancelling takes the JDK timer's lock).
     */
    private final long timeoutMillis;
    /** The ask for a connection under way, which every call that needs one meanwhile waits for; guarded by this. */
    private CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asking;
    /** Whether the server takes the function library; learnt from the first calls. */
    private final LibraryCalls functions = new LibraryCalls();
    /** The shared connection's async API, kept between calls; fetched again once it is no longer open. */
    private volatile RedisClusterAsyncCommands<byte[], byte[]> shared;

    private AsyncScripts(LettuceConnectionFactory factory) {
        this.factory = factory;
        Duration timeout = factory.getClientConfiguration().getCommandTimeout();
        // without client options of the factory's, Lettuce's own apply: commands time out
        boolean lettuceTimesOut = factory.getClientConfiguration().getClientOptions()
                .map(options -> options.getTimeoutOptions().isTimeoutCommands()).orElse(true);
        this.timeoutMillis = lettuceTimesOut ? 0
                : timeout != null && !timeout.isZero() && !timeout.isNegative() ? timeout.toMillis()
                : TimeUnit.MINUTES.toMillis(1);
    }

    /** The runner for {@code factory}, or {@code null} if it has no shared Lettuce connection (or no Lettuce). */
    static AsyncScripts of(RedisConnectionFactory factory) {
        try {
            return factory instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection()
                    ? new AsyncScripts(lettuce) : null;
        } catch (LinkageError noLettuce) {
            return null;
        }
    }

    /**
     * Sends {@code script}; the stage completes with its reply (a {@code List} for multi-bulk replies, a
     * {@code Long} for integers) as {@code reading} reads it, or with what Redis, the client or the reading reported.
     * Cancelling the stage cancels the call itself, which is then never sent if it still waits for a connection (how
     * Redlock's interrupted node calls stop).
     *
     * @param keysAndArgs the script's keys ({@link LockScripts.Script#keyCount}), then its arguments
     */
    <T, R> CompletionStage<R> run(LockScripts.Script script, Function<? super T, ? extends R> reading,
            byte[]... keysAndArgs) {
        return runWithKeys(script, script.keyCount(), reading, keysAndArgs);
    }

    /** {@link #run}, with the first {@code keys} of {@code keysAndArgs} as the script's keys, however many it has. */
    <T, R> CompletionStage<R> runWithKeys(LockScripts.Script script, int keys,
            Function<? super T, ? extends R> reading, byte[]... keysAndArgs) {
        ScriptOutputType type = script.returnType() == ReturnType.MULTI ? ScriptOutputType.MULTI
                : ScriptOutputType.INTEGER;
        Call<T, R> call = new Call<>(script, type, Arrays.copyOfRange(keysAndArgs, 0, keys),
                Arrays.copyOfRange(keysAndArgs, keys, keysAndArgs.length), reading, new CompletableFuture<>());
        RedisClusterAsyncCommands<byte[], byte[]> commands = shared;
        if (commands != null && isOpen(commands)) {
            send(commands, call);
        } else {
            // sent once connected, unless the caller gave up meanwhile: a call cancelled by then is never sent
            connection().whenComplete((connected, failure) -> {
                if (failure != null) {
                    call.reply.completeExceptionally(failure);
                } else if (!call.reply.isDone()) {
                    send(connected, call);
                }
            });
        }
        return timeoutMillis > 0 ? call.reply.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS) : call.reply;
    }

    /**
     * The factory's connection, asked for on {@link #connecting}: one ask at a time, shared by the calls that come
     * meanwhile, so that calls during an outage do not queue one connection attempt each.
     */
    private synchronized CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connection() {
        if (asking == null || asking.isDone()) {
            asking = CompletableFuture.supplyAsync(this::sharedCommands, connecting);
        }
        return asking;
    }

    private <T> void send(RedisClusterAsyncCommands<byte[], byte[]> commands, Call<T, ?> call) {
        if (functions.usable(call.script) && commands instanceof RedisAsyncCommands<byte[], byte[]> server) {
            byFunction(server, call, true);
        } else {
            byScript(commands, call);
        }
    }

    /**
     * {@code FCALL}; the library is loaded when the server does not have it (yet, or any more: a restart without
     * persistence), and a server without functions (Redis 6) or a user not allowed them gets {@code EVALSHA}.
     */
    private <T> void byFunction(RedisAsyncCommands<byte[], byte[]> commands, Call<T, ?> call, boolean mayLoad) {
        commands.<T>fcall(LockScripts.LIBRARY.function(call.script), call.type, call.keys, call.args)
                .whenComplete((value, failure) -> {
                    if (failure == null) {
                        call.answer(value);
                    } else if (mayLoad && LibraryCalls.isMissing(failure)) {
                        commands.functionLoad(LockScripts.LIBRARY.code()).whenComplete((name, loadFailure) -> {
                            if (loadFailure == null || LibraryCalls.isLoaded(loadFailure)) {
                                byFunction(commands, call, false);
                            } else if (functions.refusedBy(loadFailure)) {
                                byScript(commands, call);
                            } else {
                                call.reply.completeExceptionally(loadFailure);
                            }
                        });
                    } else if (functions.refusedBy(failure)) {
                        byScript(commands, call);
                    } else {
                        call.reply.completeExceptionally(failure);
                    }
                });
    }

    /** {@code EVALSHA}, and the script's text after {@code NOSCRIPT}. */
    private <T> void byScript(RedisClusterAsyncCommands<byte[], byte[]> commands, Call<T, ?> call) {
        LockScripts.Script script = call.script;
        commands.<T>evalsha(script.sha1(), call.type, call.keys, call.args).whenComplete((value, failure) -> {
            if (failure == null) {
                call.answer(value);
            } else if (LockScripts.isNoScript(failure)) {
                commands.<T>eval(script.text(), call.type, call.keys, call.args).whenComplete((retried, error) -> {
                    if (error == null) {
                        call.answer(retried);
                    } else {
                        call.reply.completeExceptionally(error);
                    }
                });
            } else {
                call.reply.completeExceptionally(failure);
            }
        });
    }

    /** One call of a script: what is sent, how its reply is read, and where what was read goes. */
    private record Call<T, R>(LockScripts.Script script, ScriptOutputType type, byte[][] keys, byte[][] args,
            Function<? super T, ? extends R> reading, CompletableFuture<R> reply) {

        /**
         * Redis's reply, read: in the reply's own completion, so that a call costs no stage of its own to read it.
         * Whatever the reading throws completes the call, as a stage would, so no caller waits for a reply that came.
         */
        void answer(T value) {
            try {
                reply.complete(reading.apply(value));
            } catch (Throwable unreadable) {
                reply.completeExceptionally(unreadable);
            }
        }
    }

    /**
     * The async API of the factory's shared connection. Kept while it is open, so that a call costs no Spring Data
     * connection; asked of the factory again when it is not (reconnecting, or reset by the factory's owner), which
     * hands back the connection Lettuce is reconnecting, or makes a new one if it was closed. May block: called on
     * {@link #connecting} only.
     */
    private RedisClusterAsyncCommands<byte[], byte[]> sharedCommands() {
        RedisClusterAsyncCommands<byte[], byte[]> commands = shared;
        if (commands != null && isOpen(commands)) {
            return commands;
        }
        try (RedisConnection connection = factory.getConnection()) {
            commands = ((LettuceConnection) connection).getNativeConnection();
        }
        shared = commands;
        return commands;
    }

    private static boolean isOpen(RedisClusterAsyncCommands<byte[], byte[]> commands) {
        StatefulConnection<?, ?> connection = commands instanceof RedisAsyncCommands<?, ?> single
                ? single.getStatefulConnection()
                : commands instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster ? cluster.getStatefulConnection()
                : null;
        return connection != null && connection.isOpen();
    }
}
