package dev.distlock.benchmarks.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LockCostCheckTest {

    private static volatile Object sink;

    @Test
    void countsWhatThePairsAllocateOnTheCallerAndInTheJvm() throws Exception {
        LockCostCheck check = new LockCostCheck(3);

        // a byte[1024] is 1,040 bytes with its header (16 with compressed class pointers, 24 without)
        CostResult result = check.measure("1 KiB per pair", 20_000, i -> sink = new byte[1024]);

        assertThat(result.runs()).hasSize(3);
        assertThat(result.median(CostResult.Run::callerBytes)).isCloseTo(1040, within(60.0));
        assertThat(result.median(CostResult.Run::jvmBytes)).isGreaterThanOrEqualTo(1000);
        assertThat(result.median(CostResult.Run::callerCpuNanos)).isPositive();
        assertThat(result.min(CostResult.Run::wallNanos)).isLessThanOrEqualTo(result.max(CostResult.Run::wallNanos));
    }

    @Test
    void theMedianOfAnEvenNumberOfRunsIsTheMeanOfTheMiddleTwo() {
        CostResult result = new CostResult("four runs", 1, java.util.List.of(run(4), run(1), run(3), run(2)));

        assertThat(result.median(CostResult.Run::wallNanos)).isEqualTo(2.5);
        assertThat(result.min(CostResult.Run::wallNanos)).isEqualTo(1);
        assertThat(result.max(CostResult.Run::wallNanos)).isEqualTo(4);
    }

    private static CostResult.Run run(double wallNanos) {
        return new CostResult.Run(wallNanos, 0, 0, 0, 0);
    }
}
