/**
 * Acquisitions as step machines: one call that wants a name, or several names in one wait, each try a token's
 * conversation with the store. Internal.
 */
package dev.distlock.core.engine.acquire;
