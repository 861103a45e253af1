package dev.distlock.samples.counter

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication

/** A WebFlux service keeping named counters in Redis; see the module's README. */
@SpringBootApplication
class ReactiveCounterApplication

fun main(args: Array<String>) {
    runApplication<ReactiveCounterApplication>(*args)
}
