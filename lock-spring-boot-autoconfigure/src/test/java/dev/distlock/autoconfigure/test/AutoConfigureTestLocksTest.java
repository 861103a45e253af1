package dev.distlock.autoconfigure.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.kit.TestLocks;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

@SpringBootTest(classes = AutoConfigureTestLocksTest.App.class, properties = "distlock.store=memory")
@AutoConfigureTestLocks
class AutoConfigureTestLocksTest {

    @Autowired
    private TestLocks locks;

    @Autowired
    private LockRegistry registry;

    @Autowired
    private Report report;

    @Test
    void annotatedMethodsLockOnTheKitsRegistry() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch ready = new CountDownLatch(2);
            Runnable caller = () -> {
                ready.countDown();
                try {
                    assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                report.generate();
            };
            Future<?> first = threads.submit(caller);
            Future<?> second = threads.submit(caller);
            first.get(10, TimeUnit.SECONDS);
            second.get(10, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }

        assertThat(locks.journal().sections("report")).hasSize(2);
        locks.assertNeverOverlapped("report");
        locks.assertRanUnderLock("report");
        locks.assertNothingHeld();
    }

    @Test
    void aLockTheKitHoldsKeepsTheApplicationOut() {
        locks.lose("report");

        assertThat(registry.obtain("report").tryLock()).isFalse();
    }

    /** An application's service, whose guarded work the test journals. */
    static class Report {

        private final TestLocks locks;

        Report(TestLocks locks) {
            this.locks = locks;
        }

        @DistributedLock(name = "report", timeout = "10s")
        public void generate() {
            locks.journal().run("report", () -> { });
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Report report(TestLocks locks) {
            return new Report(locks);
        }
    }
}
