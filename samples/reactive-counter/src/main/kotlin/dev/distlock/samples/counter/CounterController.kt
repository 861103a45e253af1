package dev.distlock.samples.counter

import dev.distlock.aop.LockAcquisitionTimeoutException
import org.springframework.http.HttpStatus
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.ResponseStatus
import org.springframework.web.bind.annotation.RestController

/** The counters over HTTP; coroutine handlers, so a request waiting for the lock holds no thread either. */
@RestController
@RequestMapping("/counters/{name}")
class CounterController(private val counters: Counters) {

    /** Adds one under the lock; returns the new value. */
    @PostMapping("/increment")
    suspend fun increment(@PathVariable name: String): Long = counters.increment(name)

    /** Adds one without the lock (loses updates under concurrency); returns the value it wrote. */
    @PostMapping("/increment-unlocked")
    suspend fun incrementUnlocked(@PathVariable name: String): Long = counters.incrementUnlocked(name)

    /** The current value. */
    @GetMapping
    suspend fun value(@PathVariable name: String): Long = counters.value(name)

    /** The lock stayed busy for the whole timeout: the caller may retry later. */
    @ExceptionHandler
    @ResponseStatus(HttpStatus.SERVICE_UNAVAILABLE)
    fun busy(timeout: LockAcquisitionTimeoutException): String = timeout.message ?: "counter busy"
}
