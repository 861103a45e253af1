/**
 * How the engine calls its store: one retry policy for transient failures, a caller's own failures (interrupt,
 * cancellation, client error) kept its own, the clean-up of a token whose outcome is unknown, and where a caller's
 * commands go out and their answers are dealt with. Internal.
 */
package dev.distlock.core.engine.store;
