package dev.distlock.samples.woven

import dev.distlock.annotation.DistributedLock
import dev.distlock.aop.ReactiveLockContext
import kotlinx.coroutines.reactor.awaitSingle
import org.springframework.stereotype.Service

/**
 * Reserves stock from coroutines: [reserve] calls the bean's own private `suspend fun` [take], whose lock is held
 * across its suspensions until it returns. The class is compiled by kotlinc and woven by the AspectJ compiler
 * afterwards (binary weaving of `target/classes`); final, and without a proxy.
 */
@Service
class Reservations {

    /**
     * Reserves [sku], running [work] (which may suspend) under the item's lock.
     *
     * @return the name of the lock the reservation held
     */
    suspend fun reserve(sku: String, work: suspend () -> Unit): String = take(sku, work)

    @DistributedLock(name = "'reserve:' + #sku", timeout = "10s")
    private suspend fun take(sku: String, work: suspend () -> Unit): String {
        val lock = ReactiveLockContext.current().awaitSingle()
        work() // may suspend: the lock stays held, and no thread waits
        return lock.key()
    }
}
