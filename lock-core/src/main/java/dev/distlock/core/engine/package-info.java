/**
 * The lock engine, wired once per registry ({@link dev.distlock.core.engine.Engine}): internal to distlock, with no
 * compatibility promise between versions (use {@link dev.distlock.core.LockRegistry} and the SPI). Its parts are
 * layered, each using only those below: time and threads ({@code runtime}), store calls ({@code store}), holds and
 * their names ({@code hold}), who a registry is ({@code presence}), the engine's context (this package) and
 * acquisitions ({@code acquire}).
 */
package dev.distlock.core.engine;
