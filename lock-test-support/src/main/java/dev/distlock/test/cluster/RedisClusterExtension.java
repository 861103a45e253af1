package dev.distlock.test.cluster;

import dev.distlock.test.RedisExtensionSupport;

/**
 * JUnit 5 extension running a {@link RedisCluster} for a test class. Register it in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisClusterExtension redis = new RedisClusterExtension();
 *
 * @Test
 * void survivesAFailover() {
 *     RedisCluster cluster = redis.cluster();
 *     LettuceConnectionFactory factory =
 *             new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.seedAddresses()));
 *     ...
 * }
 * }</pre>
 *
 * <p>The cluster starts once before all tests of the class (about 2 s) and is stopped after them. Before each test it
 * is healed ({@link RedisCluster#heal()}): killed nodes restarted, suspended ones resumed, open slots closed, healthy
 * again, all data flushed. Roles and slot assignments may differ from the previous test's; ask the cluster. Failures to
 * start fail the tests, they never skip. See {@link RedisExtensionSupport} for the lifecycle.
 */
public final class RedisClusterExtension extends RedisExtensionSupport<RedisCluster> {

    /** An extension with the default cluster: 3 primaries with 1 replica each, installed binary. */
    public RedisClusterExtension() {
        this(RedisCluster.builder());
    }

    /**
     * An extension with a cluster of these options.
     *
     * @param builder e.g. {@code RedisCluster.builder().binary(RedisBinary.named(RedisBinary.VALKEY_8_0))}
     */
    public RedisClusterExtension(RedisClusterBuilder builder) {
        super(builder::start, RedisCluster::heal);
    }

    /**
     * The running cluster.
     *
     * @return the cluster
     * @throws IllegalStateException outside the lifecycle of the test class
     */
    public RedisCluster cluster() {
        return running();
    }
}
