/**
 * The backend SPI: a {@link dev.distlock.core.spi.LockStore} makes single, owner-checked lock operations atomic;
 * what else it offers (a wait queue, hand-off notices, an asynchronous client, reads, announcements, failure
 * classification, fewer round trips) is described by one {@link dev.distlock.core.spi.StoreCapabilities} value of
 * small capability interfaces. Everything else (waiting, re-entrancy, renewal, the local view of time) is the
 * engine's, in {@code dev.distlock.core.support}. {@code dev.distlock.test.contract.LockStoreContract} holds every
 * store to the same answers.
 */
package dev.distlock.core.spi;
