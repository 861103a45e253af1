package dev.distlock.aop;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the durations of {@link dev.distlock.annotation.DistributedLock @DistributedLock} ({@code timeout},
 * {@code lease}, {@code holdAtLeast}) in the forms Spring Boot accepts for {@code Duration} properties:
 * {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d} (also {@code ns}, {@code us}; a bare number
 * is milliseconds) or ISO-8601 such as {@code PT5S}. Kept here rather than borrowed from Spring Boot, so
 * that this package needs plain Spring only.
 */
final class LockDurations {

    private static final Pattern SIMPLE = Pattern.compile("^([+-]?\\d+)([a-zA-Z]{0,2})$");
    private static final Pattern ISO_8601 = Pattern.compile("^[+-]?[pP].*$");

    private LockDurations() {
    }

    /**
     * The duration {@code text} stands for.
     *
     * @throws IllegalArgumentException if it is neither form, or names an unknown unit
     */
    static Duration parse(String text) {
        String value = text.trim();
        Matcher simple = SIMPLE.matcher(value);
        if (simple.matches()) {
            try {
                return Duration.of(Long.parseLong(simple.group(1)), unit(simple.group(2), text));
            } catch (ArithmeticException tooLong) {
                throw new IllegalArgumentException("'" + text + "' is longer than a duration can be", tooLong);
            }
        }
        if (ISO_8601.matcher(value).matches()) {
            try {
                return Duration.parse(value);
            } catch (DateTimeParseException ex) {
                throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 duration", ex);
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration");
    }

    private static ChronoUnit unit(String suffix, String text) {
        return switch (suffix.toLowerCase(Locale.ROOT)) {
            case "", "ms" -> ChronoUnit.MILLIS;
            case "ns" -> ChronoUnit.NANOS;
            case "us" -> ChronoUnit.MICROS;
            case "s" -> ChronoUnit.SECONDS;
            case "m" -> ChronoUnit.MINUTES;
            case "h" -> ChronoUnit.HOURS;
            case "d" -> ChronoUnit.DAYS;
            default -> throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + suffix
                    + "'; allowed: ns, us, ms, s, m, h, d");
        };
    }
}
