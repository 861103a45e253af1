package dev.distlock.samples.woven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.aop.DistributedLockAdvisor;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The woven application on the in-memory store: calls the proxies would not lock are locked, by the aspect alone.
 */
class WovenServiceTest {

    private static ConfigurableApplicationContext context;

    @BeforeAll
    static void start() {
        context = WovenLocks.start("distlock.store=memory");
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void theAspectLocksAndTheAdvisorBacksOff() {
        assertThat(context.getBeanProvider(DistributedLockAdvisor.class).getIfAvailable()).isNull();
        assertThat(AopUtils.isAopProxy(context.getBean(StockService.class))).as("no proxy").isFalse();
    }

    @Test
    void aCallOfTheBeanToItselfIsLocked() throws Exception {
        StockService stock = context.getBean(StockService.class);
        WovenLocks.assertOneCallAtATime(stock::restock, "sku-1", "restocked sku-1");
    }

    @Test
    void aPrivateMethodIsLockedAndItsCallsAreMetered() throws Exception {
        StockService stock = context.getBean(StockService.class);
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        WovenLocks.assertOneCallAtATime(stock::audit, "sku-2", "audited sku-2");
        assertThat(WovenLocks.skipped(meters, "StockService.auditLocked")).isEqualTo(1);
        assertThat(WovenLocks.acquisitions(meters, "StockService.auditLocked", "acquired")).isEqualTo(2);
    }
}
