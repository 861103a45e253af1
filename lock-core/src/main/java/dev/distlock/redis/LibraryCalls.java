package dev.distlock.redis;

/**
 * What a server said about the function library ({@link LockScripts#LIBRARY}): whether {@code FCALL} is worth trying,
 * and what its errors mean. A server without functions (Redis 6) or a user without the right to call or load them
 * turns them off for good: the scripts then run by {@code EVALSHA}, which every supported server has.
 */
final class LibraryCalls {

    private volatile boolean refused;

    /** Whether {@code script} is called as a function: it is in the library, and functions were not refused. */
    boolean usable(LockScripts.Script script) {
        return !refused && LockScripts.LIBRARY.holds(script);
    }

    /** Whether {@code failure} says that the server has no functions or the user may not use them; if so, off. */
    boolean refusedBy(Throwable failure) {
        String message = messageOf(failure);
        boolean refusal = message.startsWith("ERR unknown command")
                || message.startsWith("NOPERM") && (message.contains("'fcall'") || message.contains("'function"));
        if (refusal) {
            refused = true;
        }
        return refusal;
    }

    /** Whether {@code failure} says that the server does not have the function: load the library. */
    static boolean isMissing(Throwable failure) {
        return messageOf(failure).startsWith("ERR Function not found");
    }

    /** Whether a {@code FUNCTION LOAD} failed only because another call loaded the library first. */
    static boolean isLoaded(Throwable failure) {
        String message = messageOf(failure);
        return message.contains("Library '") && message.contains("already exists");
    }

    private static String messageOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof io.lettuce.core.RedisCommandExecutionException && cause.getMessage() != null) {
                return cause.getMessage();
            }
        }
        return String.valueOf(failure.getMessage());
    }
}
