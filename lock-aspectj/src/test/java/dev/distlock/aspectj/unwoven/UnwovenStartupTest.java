package dev.distlock.aspectj.unwoven;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

/** This package is left out of the weaving ({@code META-INF/aop.xml}): the AspectJ mode refuses to start with it. */
class UnwovenStartupTest {

    @Test
    void anAnnotatedMethodThatWasNotWovenFailsTheStartupNamingIt() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class)
                .properties("distlock.store=memory", "distlock.advice-mode=aspectj", "spring.main.banner-mode=off")
                .run().close())
                .hasStackTraceContaining("not woven by AspectJ")
                .hasStackTraceContaining(Job.class.getName() + ".run");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Job job() {
            return new Job();
        }
    }

    static class Job {

        @DistributedLock(name = "job")
        public void run() {
        }
    }
}
