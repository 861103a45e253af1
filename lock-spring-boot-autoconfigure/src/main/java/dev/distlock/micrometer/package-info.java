/**
 * Micrometer metrics of distributed locks: {@link dev.distlock.micrometer.DistlockMetrics}, a lock listener.
 */
package dev.distlock.micrometer;
