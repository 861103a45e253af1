/**
 * Holds and their names: a hold's phases and how long it may be trusted ({@link dev.distlock.core.engine.hold.HoldClock}
 * has every time rule), its renewals (the watchdog, batched), its release and local hand-off, and each name's local
 * gate and state. Internal.
 */
package dev.distlock.core.engine.hold;
