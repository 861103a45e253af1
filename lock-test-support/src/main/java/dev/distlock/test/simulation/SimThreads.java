package dev.distlock.test.simulation;

import dev.distlock.core.runtime.CallerWaits;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The threads of a simulation's blocking callers: real threads, so that the engine runs a blocking call as it does
 * for an application (its steps on the caller's own thread, re-entry and interrupts per thread), of which one at a
 * time runs, and only while the simulation's thread waits for it. A thread runs from a task of the
 * {@link VirtualScheduler} (started, woken, interrupted) until it comes to a simulated wait: the engine's wait
 * between a call's steps ({@link CallerWaits}), a store command's answer, or a think time. What wakes it (a step
 * handed to its call, an answer, a timer) schedules a task of its process, so the order in which threads run is drawn
 * from the seed as every other task's, and a paused process's threads stay parked.
 */
final class SimThreads implements CallerWaits {

    /** How long (real time) a thread may run before it comes to a simulated wait: past it, the run is broken. */
    private static final long PATIENCE_MILLIS = 60_000;

    private final VirtualScheduler scheduler;
    /** Guards {@link #running}, which the simulation's thread waits to see at zero. */
    private final Object baton = new Object();
    private int running;
    /** The thread parked on each monitor, while it is (touched by the one thread running at a time). */
    private final Map<Object, SimThread> parkedOn = new IdentityHashMap<>();
    private final ThreadLocal<SimThread> current = new ThreadLocal<>();

    SimThreads(VirtualScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** A thread of {@code process} that runs {@code body}, started as soon as it is its turn. */
    SimThread start(String id, SimProcess process, Runnable body) {
        SimThread thread = new SimThread(id, process, body);
        scheduler.soon(process, thread::begin);
        return thread;
    }

    /** The simulated thread calling, or {@code null} on the simulation's own thread. */
    SimThread current() {
        return current.get();
    }

    @Override
    public void await(Object monitor) throws InterruptedException {
        SimThread self = current.get();
        if (self == null) {
            monitor.wait();
            return;
        }
        parkedOn.put(monitor, self);
        try {
            self.park(monitor);
        } finally {
            parkedOn.remove(monitor);
        }
    }

    @Override
    public void wake(Object monitor) {
        SimThread waiter = parkedOn.get(monitor);
        if (waiter != null) {
            waiter.wakeSoon();
        } else {
            monitor.notifyAll();
        }
    }

    /** Waits (on the simulation's thread) until no simulated thread runs. */
    private void awaitQuiet(SimThread resumed) {
        long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        synchronized (baton) {
            while (running > 0) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    IllegalStateException stuck = new IllegalStateException("simulated thread " + resumed.id
                            + " did not come to a simulated wait within " + PATIENCE_MILLIS + " ms");
                    stuck.setStackTrace(resumed.thread.getStackTrace());
                    throw stuck;
                }
                try {
                    baton.wait(left);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("the simulation's thread was interrupted", interrupted);
                }
            }
        }
    }

    private void runningOneMore() {
        synchronized (baton) {
            running++;
        }
    }

    private void runningOneLess() {
        synchronized (baton) {
            running--;
            baton.notifyAll();
        }
    }

    /** One simulated thread. */
    final class SimThread {

        final String id;
        final SimProcess process;
        private final Thread thread;
        /** Written by the simulation's thread holding the monitor the thread parks on; read by the thread. */
        private boolean granted;
        /** The monitor it is parked on, while it is. */
        private volatile Object parked;
        private boolean wakeScheduled;
        private volatile boolean finished;
        /** A monitor of its own, for the waits that are not the engine's. */
        private final Object own = new Object();

        private SimThread(String id, SimProcess process, Runnable body) {
            this.id = id;
            this.process = process;
            this.thread = new Thread(() -> run(body), "sim-" + id);
            this.thread.setDaemon(true);
        }

        boolean finished() {
            return finished;
        }

        private void run(Runnable body) {
            current.set(this);
            try {
                body.run();
            } catch (RuntimeException | Error failure) {
                scheduler.failures().add(failure);
            } finally {
                finished = true;
                runningOneLess();
            }
        }

        /** Starts the thread (a task of the simulation) and waits until it parks or ends. */
        private void begin() {
            runningOneMore();
            thread.start();
            awaitQuiet(this);
        }

        /** Parks on {@code monitor}, whose lock the calling thread holds, until a task of the simulation grants it. */
        private void park(Object monitor) throws InterruptedException {
            granted = false;
            parked = monitor;
            runningOneLess();
            try {
                while (!granted) {
                    monitor.wait();
                }
            } finally {
                parked = null;
                wakeScheduled = false;
            }
        }

        /** Has it resumed as soon as it is its process's turn (once, however many things wake it meanwhile). */
        void wakeSoon() {
            if (!wakeScheduled) {
                wakeScheduled = true;
                scheduler.soon(process, this::resume);
            }
        }

        /** Runs it on (a task of the simulation) until it parks again or ends. */
        private void resume() {
            Object monitor = parked;
            if (finished || monitor == null) {
                return;
            }
            synchronized (monitor) {
                granted = true;
                runningOneMore();
                monitor.notifyAll();
            }
            awaitQuiet(this);
        }

        /** Interrupts it where it is parked (a task of the simulation) and runs it until it parks again or ends. */
        boolean interrupt() {
            if (finished || parked == null) {
                return false;
            }
            runningOneMore();
            thread.interrupt();
            awaitQuiet(this);
            return true;
        }

        /**
         * On this thread: parks for {@code nanos} of virtual time, and at least until its process runs again (a
         * pause of the process begun by this thread holds it from here); an interrupt ends it early.
         */
        void sleep(long nanos) throws InterruptedException {
            long until = scheduler.nanoTime() + nanos;
            scheduler.after(nanos, process, this::wakeSoon);
            synchronized (own) {
                do {
                    park(own);
                } while (scheduler.nanoTime() < until);
            }
        }

        /**
         * On this thread: the answer to a store command sent over the simulated network, as a blocking client
         * returns it. Interrupted while it waits (or before), it throws {@link CommandInterruptedException} with the
         * interrupt flag set, as Lettuce does, and the command goes on.
         */
        <T> T await(CompletableFuture<T> answer, String command) {
            answer.whenComplete((value, failure) -> wakeSoon());
            synchronized (own) {
                while (!answer.isDone()) {
                    try {
                        if (Thread.interrupted()) {
                            throw new InterruptedException();
                        }
                        park(own);
                    } catch (InterruptedException interrupt) {
                        Thread.currentThread().interrupt();
                        throw new CommandInterruptedException(command);
                    }
                }
            }
            try {
                return answer.join();
            } catch (CompletionException failed) {
                if (failed.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                throw failed;
            }
        }
    }

    /** A blocking store call broken by an interrupt of its thread, as Lettuce's {@code RedisCommandInterruptedException}. */
    static final class CommandInterruptedException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        CommandInterruptedException(String command) {
            super("Command interrupted (simulated) " + command);
        }
    }
}
