package dev.distlock.samples.woven;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A service compiled by the AspectJ compiler with distlock's aspect: {@code distlock.advice-mode=aspectj}. */
@SpringBootApplication
public class WovenServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(WovenServiceApplication.class, args);
    }
}
