package dev.distlock.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

/**
 * The case every kind of hold must pass on real processes: a holder that wrote is paused (SIGSTOP) past its lease
 * while another process waits; the other gets the name and writes; the paused one, woken, reports the loss, writes
 * nothing, and a write it had in flight, carrying its older fencing token, is refused by the resource.
 */
final class PausedPastLease {

    private static final Duration ANSWER = Duration.ofSeconds(30);

    /** The fencing tokens of the paused holder and of the next one. */
    record Fences(long paused, long next) {
    }

    private PausedPastLease() {
    }

    /**
     * Runs the case: {@code holder} (with a lease shorter than {@code next}'s wait) takes and writes, {@code next}
     * queues ({@code awaitQueued} returns once it is), then the pause; asserts each step.
     */
    static Fences run(LockProcess holder, LockProcess next, FencingOracle resource, Runnable awaitQueued) {
        long holderFence = holder.acquireAtOnce();
        assertThat(resource.writeBy(holder, "holder")).isTrue();
        next.send("lock 60000");
        awaitQueued.run();

        holder.pause();
        long nextFence = LockProcess.fence(next.expect("acquired", ANSWER));
        assertThat(resource.writeBy(next, "next")).isTrue();
        holder.resume();

        LockProcess.awaitUntil(() -> holder.events().contains("lost " + holderFence));
        holder.send("write");
        assertThat(holder.answer(ANSWER)).as("no write once the loss is known").isEqualTo("not-held");
        assertThat(resource.write("holder's write in flight", holderFence)).isFalse();
        assertThat(nextFence).isGreaterThan(holderFence);
        return new Fences(holderFence, nextFence);
    }
}
