package dev.distlock.aop

import dev.distlock.core.LockRegistry
import java.util.concurrent.atomic.AtomicInteger

/** Who was inside a locked body, how many at most at once, and whether the lock was held when they came in. */
open class LockJournal {
    val inside = AtomicInteger()
    val mostInside = AtomicInteger()
    val entered = AtomicInteger()
    val unlockedEntries = AtomicInteger()
}

/** Takes lock `name` on a thread of its own, which ends holding it: the name is busy for every other caller. */
fun LockRegistry.holdOnAnotherThread(name: String) {
    val holder = Thread { obtain(name).lock() }
    holder.start()
    holder.join()
}
