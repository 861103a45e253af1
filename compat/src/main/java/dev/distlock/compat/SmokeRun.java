package dev.distlock.compat;

import dev.distlock.core.LockRegistry;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Given the argument {@code --compat.smoke}: takes a lock through the annotation once the application has
 * started and prints what it got from which registry. The AOT test runs this. (An argument rather than a
 * condition: AOT processing fixes the beans at build time.)
 */
@Component
class SmokeRun implements ApplicationRunner {

    private final Counter counter;
    private final LockRegistry registry;

    SmokeRun(Counter counter, LockRegistry registry) {
        this.counter = counter;
        this.registry = registry;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!args.containsOption("compat.smoke")) {
            return;
        }
        long fencingToken = counter.increment("smoke");
        System.out.println("SMOKE locked counter:smoke with fencing token " + fencingToken + " from "
                + registry.getClass().getSimpleName() + ", counter now " + counter.value("smoke"));
    }
}
