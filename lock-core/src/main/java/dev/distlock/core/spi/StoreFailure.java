package dev.distlock.core.spi;

/**
 * What a failed store command means ({@link FailureClassifier#classify}): the one fact the engine's retries turn on.
 * An acquisition tries a {@linkplain #isTransient() transient} failure again with a fresh token within its wait;
 * a release is sent again only while the store {@linkplain #REFUSED refuses} it, after short pauses, until the hold's
 * local deadline (then the background clean-up takes over); anything else reaches the caller.
 */
public enum StoreFailure {

    /**
     * The store refused the command without running it, for a moment (a cluster slot in migration, a failover in
     * progress): sending it again soon is cheap and cannot double its effect.
     */
    REFUSED,

    /**
     * The store is moving or briefly unreachable and the command may have run (a command timeout, a lost
     * connection, too few replicas acknowledged a write): worth another try with a new token, but its effect is
     * known only later.
     */
    IN_DOUBT,

    /**
     * The store refuses the command for good (a script error, a wrong type, bad credentials, missing rights), or the
     * failure is not known to pass: the caller hears it at once, whatever its wait.
     */
    PERMANENT;

    /** Whether the failure is worth another try within the caller's wait. */
    public boolean isTransient() {
        return this != PERMANENT;
    }
}
