package dev.distlock.core;

/**
 * The lock backend (Redis) failed or could not be reached. The message names the lock, what was being done
 * and what Redis (or the client) said, e.g. {@code NOPERM ...}, {@code OOM ...} or a timeout; the cause is
 * the client's exception.
 */
public class LockBackendException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    /**
     * The backend failed while it ran {@code operation} (e.g. "acquire") on lock {@code lockName}; {@code cause} is
     * what the client reported, with the server's own words.
     */
    public LockBackendException(String lockName, String operation, Throwable cause) {
        super(lockName, "Lock '" + lockName + "': could not " + operation + ": " + innermostMessage(cause), cause);
    }

    /**
     * The message of the deepest cause that has one: what Redis said rather than a client's wrapper (such as
     * Spring's "Error in execution").
     */
    public static String innermostMessage(Throwable error) {
        String message = null;
        Throwable cause = error;
        for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                message = cause.getMessage();
            }
        }
        return message != null ? message : String.valueOf(error);
    }
}
