package dev.distlock.benchmarks.report;

/**
 * One of distlock's targets and where distlock stands.
 *
 * @param target what is asked for
 * @param measured what this run measured
 * @param verdict met, not met, or not measured in this run
 */
public record TargetStatus(String target, String measured, Verdict verdict) {

    /** Where a target stands. */
    public enum Verdict {
        MET("met"), NOT_MET("**not met**"), NOT_MEASURED("not measured");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }

        static Verdict of(boolean met) {
            return met ? MET : NOT_MET;
        }
    }
}
