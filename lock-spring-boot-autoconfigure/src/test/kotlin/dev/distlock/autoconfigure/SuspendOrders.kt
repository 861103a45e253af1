package dev.distlock.autoconfigure

import dev.distlock.annotation.DistributedLock
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.reactor.awaitSingleOrNull
import kotlinx.coroutines.reactor.mono
import org.springframework.r2dbc.core.DatabaseClient
import org.springframework.transaction.annotation.Transactional
import reactor.core.publisher.Mono

/**
 * A `suspend fun` under `@DistributedLock` and `@Transactional` for [ReactiveTransactionRollbackIT], which is Java:
 * writes an order row, then, if asked, has the lock lost (`loseTheLock`) before the transaction commits.
 */
open class SuspendOrders(private val db: DatabaseClient, private val loseTheLock: (String) -> Unit) {

    @DistributedLock(name = "'order:' + #id")
    @Transactional
    open suspend fun place(id: String, lose: Boolean) {
        db.sql("insert into orders(id) values (:id)").bind("id", id).then().awaitSingleOrNull()
        if (lose) {
            loseTheLock("order:$id")
        }
    }

    companion object {
        /** A call of [place] through `proxy` as a `Mono`, as a WebFlux handler written with coroutines makes it. */
        @JvmStatic
        fun placing(proxy: SuspendOrders, id: String, lose: Boolean): Mono<Unit> =
            mono(Dispatchers.Unconfined) { proxy.place(id, lose) }
    }
}
