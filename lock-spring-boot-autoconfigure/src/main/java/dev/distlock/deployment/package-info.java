/**
 * What the Redis deployment behind a lock registry can and cannot promise, read once at startup and logged, and
 * shown by the {@code distlocks} endpoint.
 */
package dev.distlock.deployment;
