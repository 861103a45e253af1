/**
 * The multi-process demo: {@link dev.distlock.samples.inventory.demo.InventoryDemo} starts several
 * instances of the inventory service as separate JVMs ({@link dev.distlock.samples.inventory.demo.DemoInstance}),
 * has them reserve stock of the same few SKUs at once, first with the lock and then without it, and prints
 * what the database and the instances' Micrometer meters say. Nothing here is needed to use distlock.
 */
package dev.distlock.samples.inventory.demo;
