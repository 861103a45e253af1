package dev.distlock.samples.woven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The woven application on a real redis-server: the aspect's locks are Redis locks, metered like the proxies'. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WovenServiceRedisIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static ConfigurableApplicationContext context;

    @BeforeAll
    static void start() {
        context = WovenLocks.start("spring.data.redis.port=" + redis.server().port());
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void aCallOfTheBeanToItselfIsLockedInRedis() throws Exception {
        StockService stock = context.getBean(StockService.class);
        WovenLocks.assertOneCallAtATime(stock::restock, "sku-1", "restocked sku-1");
        assertThat(WovenLocks.skipped(context.getBean(MeterRegistry.class), "StockService.restockLocked"))
                .isEqualTo(1);
    }

    @Test
    void aPrivateMethodIsLockedInRedis() throws Exception {
        StockService stock = context.getBean(StockService.class);
        WovenLocks.assertOneCallAtATime(stock::audit, "sku-2", "audited sku-2");
        assertThat(WovenLocks.acquisitions(context.getBean(MeterRegistry.class), "StockService.auditLocked",
                "acquired")).isEqualTo(2);
    }
}
