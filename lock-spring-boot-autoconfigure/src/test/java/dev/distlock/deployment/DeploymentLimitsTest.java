package dev.distlock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The limits each topology's facts lead to, for the topologies that take a cluster or a Sentinel set to show. */
class DeploymentLimitsTest {

    private static ServerFacts facts(int replicas, String persistence, String policy) {
        return new ServerFacts("7.0.15", "standalone", replicas, persistence, policy, List.of());
    }

    @Test
    void aClusterCannotPromiseThatAFailoverKeepsTheLastGrantsWhateverTheAcknowledgementSetting() {
        assertThat(DeploymentLimits.ofRedis("cluster", facts(1, "AOF", "noeviction"), "auto"))
                .containsExactly("a failover of a shard's primary may forget the grants and renewals its replicas "
                        + "had not received yet (replica acknowledgement is not available on a cluster): two "
                        + "holders for up to a lease, told apart by their fencing tokens", DeploymentLimits.PAUSES);
    }

    @Test
    void aSentinelPrimaryWithoutAReplicaCannotPromiseThatAFailoverKeepsAnyLock() {
        assertThat(DeploymentLimits.ofRedis("sentinel", facts(0, "AOF", "noeviction"), "auto"))
                .first().asString().startsWith("the primary has no replica connected: a failover now may forget");
    }

    @Test
    void redlockNamesEachPersistenceAndPolicyProblemOnceAndTheRestartRule() {
        List<String> limits = DeploymentLimits.ofRedlock(List.of(facts(0, "none", "noeviction"),
                facts(0, "none", "allkeys-lru"), facts(0, "AOF", "noeviction")));

        assertThat(limits).filteredOn(line -> line.startsWith("no persistence")).hasSize(1);
        assertThat(limits).filteredOn(line -> line.startsWith("maxmemory-policy allkeys-lru")).hasSize(1);
        assertThat(limits).anyMatch(line -> line.startsWith("a server restarted without its data before the "
                + "longest lease")).contains(DeploymentLimits.PAUSES);
    }

    @Test
    void inMemoryLocksExcludeOnlyWithinTheirJvm() {
        DeploymentReport report = DeploymentReports.memory("testLocks");

        assertThat(report.topology()).isEqualTo("in memory");
        assertThat(report.cannotPromise()).containsExactly(
                "locks exclude only the threads of this JVM, and nothing survives its restart");
    }
}
