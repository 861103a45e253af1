package dev.distlock.compat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A consumer application of the distlock starter, built and tested unchanged on each Spring Boot generation
 * distlock supports (compat/boot-3.5, compat/boot-4.1), in the JVM and AOT-processed.
 */
@SpringBootApplication
public class CompatApplication {

    public static void main(String[] args) {
        SpringApplication.run(CompatApplication.class, args);
    }
}
