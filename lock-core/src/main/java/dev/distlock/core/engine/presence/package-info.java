/**
 * Who a registry is: its owner tokens, and the identity it announces in the store so that any process can name the
 * holder of a lock and the processes in its queue. Internal.
 */
package dev.distlock.core.engine.presence;
