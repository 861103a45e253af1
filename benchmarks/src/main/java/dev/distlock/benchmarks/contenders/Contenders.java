package dev.distlock.benchmarks.contenders;

import java.util.List;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/** The contenders by name, in the order a round runs them. */
public final class Contenders {

    /** The contenders of the comparison, in the default order. */
    public static final List<String> NAMES = List.of("distlock", "redisson", "si-spin", "si-pubsub", "floor");

    /** Diagnostic variants, run only when named: distlock without its watchdog. */
    public static final List<String> EXTRA_NAMES = List.of("distlock-fixed");

    /** The name of the contender every ratio is taken against. */
    public static final String FLOOR = "floor";

    private Contenders() {
    }

    /**
     * The contender called {@code name}, bound to {@code redis}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static Contender create(String name, RedisAddress redis) {
        return switch (name) {
            case "distlock" -> new DistlockContender(redis, true);
            case "distlock-fixed" -> new DistlockContender(redis, false);
            case "redisson" -> new RedissonContender(redis);
            case "si-spin" -> new SpringIntegrationContender(redis, RedisLockType.SPIN_LOCK);
            case "si-pubsub" -> new SpringIntegrationContender(redis, RedisLockType.PUB_SUB_LOCK);
            case "floor" -> new LettuceFloorContender(redis);
            default -> throw new IllegalArgumentException(
                    "unknown contender '" + name + "'; known: " + NAMES + " and " + EXTRA_NAMES);
        };
    }
}
