package dev.distlock.redis;

import dev.distlock.core.spi.StoreFailure;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells from a failure of a Redis call whether the command was refused without running, left in doubt, or failed
 * for good: the rule behind {@link RedisLockStore#classify}. It reads the cause chain, whatever Spring Data and the
 * client wrap it in, in two steps:
 * <ol>
 * <li>Redis's own reply, wherever it is in the chain, decides: a client reports a connection whose handshake Redis
 * refused ({@code WRONGPASS}, {@code NOAUTH}, {@code LOADING}) as a failed connection, yet no command was sent on
 * it, and Redis said why.</li>
 * <li>Without a reply, the client's failure decides: a command it had no connection or node for was never sent
 * (refused); a lost or timed-out connection or a cancelled command may have run (in doubt); anything else is
 * permanent.</li>
 * </ol>
 */
final class RedisFailures {

    /**
     * Redis's error replies by their code. Refused (did not run, and passes by itself soon): a slot migrating or
     * moved, a cluster or primary down, a server loading its data, a replica (a demoted primary) refusing writes,
     * a busy script. In doubt: too few replicas acknowledged (distlock's own acknowledgement undoes a write that ran,
     * which may fail too). Permanent: bad credentials or rights, a key of another type, a full memory or a failing
     * disk (an operator's matter, not a moment's), an unknown command, a slot-crossing call, and {@code NOSCRIPT}
     * (the scripts answer it by sending their text: one that gets this far would meet it again).
     */
    private static final Map<String, StoreFailure> REPLIES = Map.ofEntries(
            Map.entry("TRYAGAIN", StoreFailure.REFUSED),
            Map.entry("MOVED", StoreFailure.REFUSED),
            Map.entry("ASK", StoreFailure.REFUSED),
            Map.entry("CLUSTERDOWN", StoreFailure.REFUSED),
            Map.entry("MASTERDOWN", StoreFailure.REFUSED),
            Map.entry("LOADING", StoreFailure.REFUSED),
            Map.entry("READONLY", StoreFailure.REFUSED),
            Map.entry("BUSY", StoreFailure.REFUSED),
            Map.entry("NOREPLICAS", StoreFailure.IN_DOUBT),
            Map.entry("WRONGPASS", StoreFailure.PERMANENT),
            Map.entry("NOAUTH", StoreFailure.PERMANENT),
            Map.entry("NOPERM", StoreFailure.PERMANENT),
            Map.entry("WRONGTYPE", StoreFailure.PERMANENT),
            Map.entry("OOM", StoreFailure.PERMANENT),
            Map.entry("MISCONF", StoreFailure.PERMANENT),
            Map.entry("CROSSSLOT", StoreFailure.PERMANENT),
            Map.entry("NOSCRIPT", StoreFailure.PERMANENT),
            Map.entry("ERR", StoreFailure.PERMANENT));

    /** The code an error reply starts with: an upper-case word. */
    private static final Pattern CODE = Pattern.compile("([A-Z][A-Z_]+)(?:\\s|$)");
    /** Redis 6 wraps the error of a command a script called: {@code ERR Error running script ...: -READONLY ...}. */
    private static final Pattern SCRIPT_CALL_CODE = Pattern.compile("Error running script.*?: -([A-Z][A-Z_]+)\\b");
    /** The client types that carry a reply of Redis, whatever its code (Lettuce's, Jedis's). */
    private static final Set<String> REPLY_TYPES = Set.of("RedisCommandExecutionException", "RedisLoadingException",
            "RedisBusyException", "RedisReadOnlyException", "RedisNoScriptException", "JedisDataException",
            "JedisAccessControlException", "JedisBusyException", "JedisNoScriptException", "JedisMovedDataException",
            "JedisAskDataException", "JedisClusterException");
    private static final Pattern CONNECTION_LOST = Pattern.compile(
            "(?i)connection (closed|reset|refused)|broken pipe|unexpected end of stream");
    private static final int MAX_DEPTH = 32;

    private RedisFailures() {
    }

    /** What {@code failure} means for the command that failed: see the class comment. */
    static StoreFailure classify(RuntimeException failure) {
        StoreFailure client = StoreFailure.PERMANENT;
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
            StoreFailure reply = reply(cause);
            if (reply != null) {
                return reply;
            }
            StoreFailure seen = clientFailure(cause);
            if (seen == StoreFailure.REFUSED || client == StoreFailure.PERMANENT) {
                client = seen; // "never sent" is the most precise fact, then "may have run"
            }
        }
        return client;
    }

    /** What Redis's reply carried by {@code cause} means; {@code null} if it carries none. */
    private static StoreFailure reply(Throwable cause) {
        String message = cause.getMessage();
        if (message == null) {
            return null;
        }
        Matcher code = CODE.matcher(message);
        if (!code.lookingAt()) {
            return null;
        }
        StoreFailure known = REPLIES.get(code.group(1));
        if (known == null) {
            return REPLY_TYPES.contains(cause.getClass().getSimpleName()) ? StoreFailure.PERMANENT : null;
        }
        if (code.group(1).equals("ERR")) {
            return errorReply(message);
        }
        return known;
    }

    /**
     * A generic error: a server at its client limit (refused at the handshake, and clients come and go), the error of
     * a command a script called on Redis 6 (what that command's code means: the first write a replica refuses ran
     * nothing), or else permanent (a syntax error, an unknown command or function, a failing script).
     */
    private static StoreFailure errorReply(String message) {
        if (message.startsWith("ERR max number of clients reached")) {
            return StoreFailure.REFUSED;
        }
        Matcher inner = SCRIPT_CALL_CODE.matcher(message);
        if (inner.find()) {
            return REPLIES.getOrDefault(inner.group(1), StoreFailure.PERMANENT);
        }
        return StoreFailure.PERMANENT;
    }

    /**
     * What a failure of the client itself means: no node for a cluster slot (Lettuce's
     * {@code PartitionSelectorException}) or no known primary behind Sentinel during a failover (Lettuce's "Master is
     * currently unknown") sent nothing; a lost connection, a timeout or a command the client cancelled (its
     * connection was closed under it, as after a failover) may have run.
     */
    private static StoreFailure clientFailure(Throwable cause) {
        String type = cause.getClass().getSimpleName();
        String message = cause.getMessage() != null ? cause.getMessage() : "";
        if (type.equals("PartitionSelectorException") || message.startsWith("Master is currently unknown")) {
            return StoreFailure.REFUSED;
        }
        if (cause instanceof java.io.IOException || cause instanceof java.util.concurrent.TimeoutException
                || cause instanceof java.util.concurrent.CancellationException || type.contains("Timeout")
                || type.contains("ConnectionFailure") || type.contains("Redirect")
                || type.equals("RedisConnectionException") || type.equals("JedisConnectionException")
                || CONNECTION_LOST.matcher(message).find()) {
            return StoreFailure.IN_DOUBT;
        }
        return StoreFailure.PERMANENT;
    }
}
