package dev.distlock.kotlin

import dev.distlock.core.DetachedLock
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext

/**
 * The locks a coroutine holds through [withLock], by name: carried in its context, so a nested `withLock` on the
 * same name (in the coroutine or a child) re-enters instead of waiting for itself. A chain, one link per hold.
 */
internal class HeldLocks(private val outer: HeldLocks?, private val hold: DetachedLock) :
    AbstractCoroutineContextElement(HeldLocks) {

    companion object Key : CoroutineContext.Key<HeldLocks>

    /** The hold of [name] in this chain, or `null`. */
    fun holdOf(name: String): DetachedLock? =
        if (hold.name() == name) hold else outer?.holdOf(name)

    override fun toString(): String = "HeldLocks(${hold.name()}${outer?.let { ", ..." } ?: ""})"
}
