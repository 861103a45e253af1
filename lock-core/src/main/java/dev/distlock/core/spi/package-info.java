/**
 * The backend SPI: a {@link dev.distlock.core.spi.LockStore} makes single, owner-checked lock operations atomic
 * and answers reads; a store may also offer {@link dev.distlock.core.spi.HandOffNotices}. Everything else
 * (waiting, re-entrancy, renewal, the local view of time) is the engine's, in {@code dev.distlock.core.support}.
 * {@code dev.distlock.test.contract.LockStoreContract} holds every store to the same answers.
 */
package dev.distlock.core.spi;
