package dev.distlock.aspectj.loadtime;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

/**
 * AspectJ does not inherit a method's annotation from the interface that declares it: a woven class whose method is
 * annotated only there is not locked, so the AspectJ mode refuses to start, naming the method and saying why.
 */
class InterfaceAnnotationTest {

    @Test
    void aMethodAnnotatedOnlyOnItsInterfaceFailsTheStartupNamingItAndWhy() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class)
                .properties("distlock.store=memory", "distlock.advice-mode=aspectj", "spring.main.banner-mode=off")
                .run().close())
                .hasStackTraceContaining("only where they are declared on an interface or a superclass")
                .hasStackTraceContaining(ReportJob.class.getName() + ".run")
                .hasStackTraceContaining("Annotate the methods of the class itself");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        ReportJob reportJob() {
            return new ReportJob();
        }
    }

    interface Job {

        @DistributedLock(name = "report")
        void run();
    }

    static class ReportJob implements Job {

        @Override
        public void run() {
        }
    }
}
