package dev.distlock.actuate;

import org.springframework.core.NestedExceptionUtils;

/** How the health check tells failures apart and names them. */
final class HealthFailures {

    private HealthFailures() {
    }

    /** The innermost cause, as {@code class: message}. */
    static String rootCause(Throwable failure) {
        return NestedExceptionUtils.getMostSpecificCause(failure).toString();
    }

    /** Whether Redis refused the command for lack of ACL permission. */
    static boolean isNoPermission(Throwable failure) {
        return mentions(failure, "NOPERM");
    }

    /** Whether Redis does not have the script cached. */
    static boolean isNoScript(Throwable failure) {
        return mentions(failure, "NOSCRIPT");
    }

    private static boolean mentions(Throwable failure, String code) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains(code)) {
                return true;
            }
        }
        return false;
    }
}
