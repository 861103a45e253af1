package dev.distlock.test.sentinel;

import dev.distlock.test.RedisExtensionSupport;

/**
 * JUnit 5 extension running a {@link RedisSentinelSet} (a primary, a replica, three sentinels) for a test class.
 * Register it in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisSentinelExtension redis = new RedisSentinelExtension();
 *
 * @Test
 * void survivesAFailover() {
 *     RedisSentinelSet set = redis.sentinelSet();
 *     LettuceConnectionFactory factory = new LettuceConnectionFactory(
 *             new RedisSentinelConfiguration(set.masterName(), new HashSet<>(set.sentinelAddresses())));
 *     ...
 *     set.killPrimary();
 * }
 * }</pre>
 *
 * <p>The set starts once before all tests of the class and is stopped after them. Before each test it is healed
 * ({@link RedisSentinelSet#heal()}): killed processes restarted, a stale primary made a replica, healthy again, data
 * flushed. Which data node is primary may differ from the previous test's; ask {@link RedisSentinelSet#primary()}.
 * Failures to start fail the tests, they never skip. See {@link RedisExtensionSupport} for the lifecycle.
 */
public final class RedisSentinelExtension extends RedisExtensionSupport<RedisSentinelSet> {

    /** An extension with the default set: installed binary, master name {@code mymaster}. */
    public RedisSentinelExtension() {
        this(RedisSentinelSet.builder());
    }

    /**
     * An extension with a set of these options.
     *
     * @param builder e.g. {@code RedisSentinelSet.builder().binary(RedisBinary.named(RedisBinary.REDIS_6_0))}
     */
    public RedisSentinelExtension(RedisSentinelBuilder builder) {
        super(builder::start, RedisSentinelSet::heal);
    }

    /**
     * The running set.
     *
     * @return the set
     * @throws IllegalStateException outside the lifecycle of the test class
     */
    public RedisSentinelSet sentinelSet() {
        return running();
    }
}
