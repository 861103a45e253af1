package dev.distlock.samples.counter

import dev.distlock.annotation.DistributedLock
import dev.distlock.aop.ReactiveLockContext
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.delay
import kotlinx.coroutines.reactor.awaitSingle
import org.springframework.http.HttpStatus
import org.springframework.stereotype.Service
import org.springframework.web.server.ResponseStatusException

/**
 * Increments named counters with a deliberately racy read-modify-write: read, work a little, write.
 *
 * [increment] runs under the distributed lock of the counter's name, so the calls of every instance take turns and
 * no update is lost; [incrementUnlocked] is the same code without the lock, to see the updates it loses.
 */
@Service
class Counters(private val store: CounterStore) {

    /**
     * Adds one to the counter [name] and returns the new value.
     *
     * The lock is awaited without a thread and held for the function's whole run, across its suspensions. The wait is
     * long because every request on one name queues for it: with hundreds at once, the last waits for all before it.
     *
     * @throws dev.distlock.aop.LockAcquisitionTimeoutException if the lock was not had within the timeout
     * @throws StaleFencingTokenException if the lock was lost and a later holder has written the counter meanwhile
     */
    // open already through the spring compiler plugin; said here because a final method would run unlocked
    @DistributedLock(name = "'counter:' + #name", timeout = "60s")
    open suspend fun increment(name: String): Long {
        val fencingToken = ReactiveLockContext.current().awaitSingle().fencingToken()
        val next = store.read(name) + 1
        work()
        if (!store.write(name, next, fencingToken)) {
            throw StaleFencingTokenException(name, fencingToken)
        }
        return next
    }

    /** [increment] without the lock: concurrent calls read the same value and overwrite each other's updates. */
    suspend fun incrementUnlocked(name: String): Long {
        val next = store.read(name) + 1
        work()
        store.writeUnfenced(name, next)
        return next
    }

    /** The counter's value. */
    suspend fun value(name: String): Long = store.read(name)

    /** Stands for the work between the read and the write; suspends, so it holds no thread. */
    private suspend fun work() = delay(WORK)

    private companion object {
        val WORK = 5.milliseconds
    }
}

/** A write refused because its fencing token is older than the counter's last writer's: the call's lock was lost. */
class StaleFencingTokenException(name: String, fencingToken: Long) :
    ResponseStatusException(HttpStatus.CONFLICT, "counter '$name': fencing token $fencingToken is stale, not written")
