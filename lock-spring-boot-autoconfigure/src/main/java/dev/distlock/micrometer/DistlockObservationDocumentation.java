package dev.distlock.micrometer;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of {@code @DistributedLock} calls. Low-cardinality keys (fit for metric tags): {@code lock}
 * (the label, never the key), {@code outcome} and, for the acquire, {@code wait.end}. High-cardinality keys (traces only): {@code distlock.key} and
 * {@code distlock.fencing.token}. Both names start with {@code distlock.}, so Spring Boot's
 * {@code management.observations.enable.distlock=false} turns them off.
 *
 * @since 0.1.0
 */
public enum DistlockObservationDocumentation implements ObservationDocumentation {

    /** The wait for the lock: from the first try to acquired, timed out, skipped, interrupted or failed. */
    ACQUIRE {

        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultLockAcquireObservationConvention.class;
        }
    },

    /** The hold: from acquired to released, found lost or failed to release; the method runs inside it. */
    HOLD {

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {LowCardinalityKeyNames.LOCK, LowCardinalityKeyNames.OUTCOME,
                LowCardinalityKeyNames.KIND};
        }

        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultLockHoldObservationConvention.class;
        }
    };

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
        return LowCardinalityKeyNames.values();
    }

    @Override
    public KeyName[] getHighCardinalityKeyNames() {
        return HighCardinalityKeyNames.values();
    }

    /** Keys with a small fixed set of values. */
    public enum LowCardinalityKeyNames implements KeyName {

        /** The lock's label: the annotation's label, its literal name, or {@code Class.method}. */
        LOCK {
            @Override
            public String asString() {
                return "lock";
            }
        },

        /** How the acquire or the hold ended. */
        OUTCOME {
            @Override
            public String asString() {
                return "outcome";
            }
        },

        /** What the call holds of its name: {@code lock}, {@code permits}, {@code read} or {@code write}. */
        KIND {
            @Override
            public String asString() {
                return "kind";
            }
        },

        /**
         * The acquire only: how its wait ended, {@code immediate}, {@code notice}, {@code poll}, {@code lease-end},
         * {@code local-hand-off}, or {@code none} without the lock.
         */
        WAIT_END {
            @Override
            public String asString() {
                return "wait.end";
            }
        }
    }

    /** Keys with a value per call. */
    public enum HighCardinalityKeyNames implements KeyName {

        /** The evaluated lock name. */
        KEY {
            @Override
            public String asString() {
                return "distlock.key";
            }
        },

        /** The hold's fencing token (once acquired). */
        FENCING_TOKEN {
            @Override
            public String asString() {
                return "distlock.fencing.token";
            }
        }
    }
}
