package dev.distlock.benchmarks.jmh;

import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** The smallest application that has {@code @DistributedLock}: distlock's auto-configuration on the in-memory store. */
@SpringBootConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration(DistlockAutoConfiguration.class)
public class AnnotationBenchmarkApplication {

    /** The bean whose method is annotated; the context proxies it. */
    @Bean
    Inventory inventory() {
        return new Inventory();
    }

    /** Starts the application with {@code distlock.store=memory}. */
    static ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(AnnotationBenchmarkApplication.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .properties("distlock.store=memory", "spring.main.banner-mode=off")
                .run();
    }
}
