package dev.distlock.benchmarks.report;

import java.util.Locale;

/** Number formats of the report; always with a dot for decimals, whatever the machine's locale. */
final class Format {

    private Format() {
    }

    /** Milliseconds with three significant digits: {@code 0.182 ms}, {@code 12.3 ms}, {@code 345 ms}. */
    static String millis(double millis) {
        if (millis >= 100) {
            return String.format(Locale.ROOT, "%.0f ms", millis);
        }
        if (millis >= 10) {
            return String.format(Locale.ROOT, "%.1f ms", millis);
        }
        if (millis >= 1) {
            return String.format(Locale.ROOT, "%.2f ms", millis);
        }
        return String.format(Locale.ROOT, "%.3f ms", millis);
    }

    /** A number with {@code decimals} decimals; {@code —} for NaN. */
    static String number(double value, int decimals) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** A share as a percentage: {@code 83%}. */
    static String percent(double share) {
        return Double.isNaN(share) ? "—" : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    /** A ratio with its range: {@code 0.85 (0.83–0.87)}, or {@code —} without one. */
    static String ratio(double mean, double min, double max) {
        if (Double.isNaN(mean)) {
            return "—";
        }
        if (min == max) {
            return number(mean, 2);
        }
        return number(mean, 2) + " (" + number(min, 2) + "–" + number(max, 2) + ")";
    }
}
