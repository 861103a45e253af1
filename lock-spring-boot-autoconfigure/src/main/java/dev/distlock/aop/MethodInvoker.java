package dev.distlock.aop;

/**
 * Calls the guarded method (the rest of the advice chain): keeps the lock support free of AOP types.
 */
@FunctionalInterface
public interface MethodInvoker {

    /** Invokes the method and returns what it returned. */
    Object invoke() throws Throwable;
}
