package dev.distlock.kotlin

import dev.distlock.core.DetachedLock
import dev.distlock.core.FencedLock
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext

/**
 * The locks a coroutine holds through [withLock]: carried in its context, so a nested `withLock` on the same lock
 * (an equal [FencedLock]: the same registry and name, in the coroutine or a child) re-enters instead of waiting for
 * itself. A chain, one link per hold.
 */
internal class HeldLocks(
    private val outer: HeldLocks?,
    private val lock: FencedLock,
    private val hold: DetachedLock,
) :
    AbstractCoroutineContextElement(HeldLocks) {

    companion object Key : CoroutineContext.Key<HeldLocks>

    /** The hold of [lock] in this chain, or `null`. */
    fun holdOf(lock: FencedLock): DetachedLock? =
        if (this.lock == lock) hold else outer?.holdOf(lock)

    override fun toString(): String = "HeldLocks(${hold.name()}${outer?.let { ", ..." } ?: ""})"
}
