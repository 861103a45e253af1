package dev.distlock.test.simulation;

import java.time.Duration;

/**
 * What may go wrong in a simulation, as the chance that one store command meets each fault, and the network's
 * timing. Every fault is one a Redis client meets: the command is refused without running ({@code TRYAGAIN}), runs
 * but its reply is lost (the client times out), never runs and times out, runs and is replayed after a reconnect
 * (the replay's answer is the one the caller gets), or is answered late. Hand-off notices may be lost, as Redis's
 * publish/subscribe may lose them. A process may pause while it holds, a caller may cancel its wait, and a process may
 * close its registry while its callers are busy.
 *
 * @param refused chance a command is refused without running
 * @param lostReply chance a command runs and its reply is lost: the caller times out
 * @param notRun chance a command never reaches the store: the caller times out
 * @param replayed chance a command runs, its reply is lost, and it runs again after a reconnect, answering then
 * @param late chance the reply comes late, within the command timeout
 * @param lostNotice chance a hand-off notice is lost
 * @param pause chance, per hold, that its process pauses while holding, up to twice the lease
 * @param cancel chance a non-blocking acquisition is cancelled by its caller while it waits
 * @param close chance, per run, that one process closes its registry at a moment drawn from the seed, its callers
 *        then stopping
 * @param commandTimeout how long a client waits for a reply
 * @param interrupt chance a blocking caller's thread is interrupted during a call (an acquisition or a release), at
 *        a moment drawn from the seed
 */
public record Faults(double refused, double lostReply, double notRun, double replayed, double late, double lostNotice,
        double pause, double cancel, double close, Duration commandTimeout, double interrupt) {

    /** No fault: the network answers within a millisecond or two. */
    public static final Faults NONE = new Faults(0, 0, 0, 0, 0, 0, 0, 0, 0, Duration.ofSeconds(1), 0);

    /** Every kind of fault, each a few times per hundred commands; a blocking call interrupted one time in ten. */
    public static final Faults EVERY_KIND = new Faults(0.02, 0.02, 0.01, 0.02, 0.03, 0.05, 0.05, 0.05, 0.3,
            Duration.ofMillis(500), 0.1);

    /** These chances with another command timeout. */
    public Faults with(Duration timeout) {
        return new Faults(refused, lostReply, notRun, replayed, late, lostNotice, pause, cancel, close, timeout,
                interrupt);
    }
}
