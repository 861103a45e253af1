package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;

/** Annotation and property mistakes end in Spring Boot's failure report, with a description and an action. */
@ExtendWith(OutputCaptureExtension.class)
class DistlockFailureAnalysisTests {

    @Test
    void annotationMistakesAreReportedWithEveryProblemAndHowToWriteEachAttribute(CapturedOutput output) {
        assertThatThrownBy(() -> start(Mistaken.class)).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START", "Description:",
                "Some @DistributedLock declarations cannot work:",
                "Job.literal: name 'order:#id' is a literal", "write 'order:' + #id",
                "Job.slow: timeout '5 parsecs' is not a duration", "Action:",
                "Correct the @DistributedLock declarations listed above",
                "a literal that must contain # or ' needs literal = true");
    }

    @Test
    void aDistlockPropertyMistakeNamesThePropertyItsValueAndWhatIsAllowed(CapturedOutput output) {
        assertThatThrownBy(() -> start(Fine.class, "--distlock.lease=100ms")).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START",
                "Invalid value '100ms' for the distlock property 'distlock.lease' (from",
                "it must be between 300ms and 365 days when renewed", "Action:", "Change distlock.lease",
                "remove it to use its default");
    }

    @Test
    void aValueOfTheWrongTypeIsReportedBySpringBootsBindingAnalyzer(CapturedOutput output) {
        assertThatThrownBy(() -> start(Fine.class, "--distlock.store=disk")).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START", "distlock.store", "disk", "Action:");
    }

    private static void start(Class<?> configuration, String... args) {
        new SpringApplicationBuilder(configuration).web(WebApplicationType.NONE)
                .properties("distlock.store=memory", "spring.main.banner-mode=off")
                .run(args)
                .close();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Mistaken {

        @Bean
        Job job() {
            return new Job();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Fine {
    }

    static class Job {

        @DistributedLock(name = "order:#id")
        public void literal(long id) {
        }

        @DistributedLock(name = "#id", timeout = "5 parsecs")
        public void slow(long id) {
        }
    }
}
