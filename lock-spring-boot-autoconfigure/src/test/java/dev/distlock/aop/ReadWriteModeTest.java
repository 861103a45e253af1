package dev.distlock.aop;

import static dev.distlock.annotation.DistributedLock.Mode.READ;
import static dev.distlock.annotation.DistributedLock.Mode.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Mono;

/**
 * {@code @DistributedLock(mode = READ / WRITE)}: readers of a name run together, a writer runs alone, each call with
 * a fencing token of its own; a call that finds the other side held fails in time like a lock's; {@code mode} with
 * {@code permits}, a name giving several names and a registry without read-write locks are refused.
 */
class ReadWriteModeTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    private AnnotationConfigApplicationContext context;
    private Catalogue catalogue;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        catalogue = context.getBean(Catalogue.class);
    }

    @AfterEach
    void stop() {
        catalogue.open();
        context.close();
    }

    @Test
    void readersRunTogetherAndAWriterWaitsForThemThenRunsAlone() throws Exception {
        List<CompletableFuture<Long>> reads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            reads.add(CompletableFuture.supplyAsync(catalogue::read));
        }
        assertThat(catalogue.awaitTwoInside()).as("two readers inside at once").isTrue();
        assertThatThrownBy(catalogue::writeWithoutWaiting).isInstanceOf(LockAcquisitionTimeoutException.class)
                .hasMessageContaining("prices");
        CompletableFuture<Long> write = CompletableFuture.supplyAsync(catalogue::write);

        catalogue.open();
        List<Long> tokens = new ArrayList<>();
        for (CompletableFuture<Long> read : reads) {
            tokens.add(read.get(BOUND.toSeconds(), TimeUnit.SECONDS));
        }
        long written = write.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(tokens).doesNotHaveDuplicates().allSatisfy(token -> assertThat(token).isLessThan(written));
        assertThat(catalogue.writersBesideOthers()).as("a writer never beside another call").isZero();
    }

    @Test
    void asynchronousMethodsTakeTheSameSidesWithoutBlocking() throws Exception {
        CompletableFuture<Long> read = CompletableFuture.supplyAsync(catalogue::read);
        assertThat(catalogue.awaitOneInside()).isTrue();

        assertThat(catalogue.readAsync().get(BOUND.toSeconds(), TimeUnit.SECONDS)).as("a reader beside a reader")
                .isEqualTo("read");
        assertThatThrownBy(() -> catalogue.writeAsyncWithoutWaiting().get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .hasCauseInstanceOf(LockAcquisitionTimeoutException.class);
        catalogue.open();
        read.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(catalogue.writeAsyncWithoutWaiting().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("written");
    }

    @Test
    void reactiveMethodsTakeTheSameSidesWithoutBlocking() throws Exception {
        CompletableFuture<Long> read = CompletableFuture.supplyAsync(catalogue::read);
        assertThat(catalogue.awaitOneInside()).isTrue();

        assertThat(catalogue.readMono().block(BOUND)).as("a reader beside a reader").isEqualTo("read");
        assertThatThrownBy(() -> catalogue.writeMonoWithoutWaiting().block(BOUND))
                .isInstanceOf(LockAcquisitionTimeoutException.class);
        catalogue.open();
        read.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(catalogue.writeMonoWithoutWaiting().block(BOUND)).isEqualTo("written");
    }

    @Test
    void aNameGivingSeveralNamesIsRefused() {
        assertThatThrownBy(() -> catalogue.several(List.of("a", "b"))).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("mode = READ").hasMessageContaining("give one name");
    }

    @Test
    void aModeWithPermitsIsRefusedAtStartup() {
        assertThatThrownBy(() -> new AnnotationConfigApplicationContext(Combined.class))
                .hasStackTraceContaining("ReadWriteModeTest$Both.call")
                .hasStackTraceContaining("permits = 2 and mode = WRITE cannot be combined");
    }

    @Test
    void aModeOnARegistryWithoutReadWriteLocksFailsTheStartupNamingTheMethod() {
        assertThatThrownBy(() -> new AnnotationConfigApplicationContext(WithoutReadWriteLocks.class))
                .hasStackTraceContaining("ReadWriteModeTest$Catalogue.")
                .hasStackTraceContaining("needs semaphores and read-write locks");
    }

    static class Catalogue {

        private final CountDownLatch entered = new CountDownLatch(2);
        private final CountDownLatch enteredOnce = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger writersBesideOthers = new AtomicInteger();

        public boolean awaitTwoInside() throws InterruptedException {
            return entered.await(BOUND.toSeconds(), TimeUnit.SECONDS);
        }

        public boolean awaitOneInside() throws InterruptedException {
            return enteredOnce.await(BOUND.toSeconds(), TimeUnit.SECONDS);
        }

        public void open() {
            release.countDown();
        }

        public int writersBesideOthers() {
            return writersBesideOthers.get();
        }

        @DistributedLock(name = "prices", mode = READ, timeout = "30s")
        public long read() {
            inside.incrementAndGet();
            entered.countDown();
            enteredOnce.countDown();
            try {
                release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            inside.decrementAndGet();
            return LockContext.current().fencingToken();
        }

        @DistributedLock(name = "prices", mode = WRITE, timeout = "30s")
        public long write() {
            if (inside.incrementAndGet() != 1) {
                writersBesideOthers.incrementAndGet();
            }
            inside.decrementAndGet();
            return LockContext.current().fencingToken();
        }

        @DistributedLock(name = "prices", mode = WRITE, timeout = "0")
        public long writeWithoutWaiting() {
            return LockContext.current().fencingToken();
        }

        @DistributedLock(name = "prices", mode = READ, timeout = "0")
        public CompletableFuture<String> readAsync() {
            return CompletableFuture.completedFuture("read");
        }

        @DistributedLock(name = "prices", mode = WRITE, timeout = "0")
        public CompletableFuture<String> writeAsyncWithoutWaiting() {
            return CompletableFuture.completedFuture("written");
        }

        @DistributedLock(name = "prices", mode = READ, timeout = "0")
        public Mono<String> readMono() {
            return Mono.just("read");
        }

        @DistributedLock(name = "prices", mode = WRITE, timeout = "0")
        public Mono<String> writeMonoWithoutWaiting() {
            return Mono.just("written");
        }

        @DistributedLock(name = "#names", mode = READ, timeout = "0")
        public void several(List<String> names) {
        }
    }

    static class Both {

        @DistributedLock(name = "both", permits = 2, mode = WRITE)
        public void call() {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Catalogue catalogue() {
            return new Catalogue();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Combined {

        @Bean
        Both both() {
            return new Both();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.Advice.class)
    static class WithoutReadWriteLocks {

        @Bean(destroyMethod = "close")
        PermitsLockTest.LocksOnly lockRegistry() {
            return new PermitsLockTest.LocksOnly(InMemoryLockRegistry.builder().build());
        }

        @Bean
        Catalogue catalogue() {
            return new Catalogue();
        }
    }
}
