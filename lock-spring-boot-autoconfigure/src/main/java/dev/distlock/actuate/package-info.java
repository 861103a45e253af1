/**
 * Spring Boot Actuator support: the {@code distlocks} endpoint listing the locks this instance holds, and
 * the {@code distlock} health indicator.
 */
package dev.distlock.actuate;
