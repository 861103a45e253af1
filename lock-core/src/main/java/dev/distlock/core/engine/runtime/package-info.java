/**
 * The engine's time and threads, read and scheduled only through the registry's injected
 * {@link dev.distlock.core.runtime.LockRuntime}: where steps run, wait timers, and the listeners' calls. Internal.
 */
package dev.distlock.core.engine.runtime;
