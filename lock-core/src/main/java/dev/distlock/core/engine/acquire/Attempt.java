package dev.distlock.core.engine.acquire;

import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * One token's conversation with the store within an {@link Acquisition}: its tries, leaving the queue, the hand-off
 * notice meant for it, and the clean-up of whatever it may still hold. A token serves one attempt only: after an
 * unknown outcome (no reply, an interrupt, a reply too late to count) the acquisition abandons it and starts
 * another. Whether a reply or a notice leaves enough of its lease to trust is {@link TrustedHolds}'s.
 */
public final class Attempt implements Consumer<Grant> {

    /** What giving up answers on a store without a queue: nothing was handed over to a token that never queued. */
    private static final AcquireResult NOT_HANDED_OVER = AcquireResult.busy(-1, 0);

    private final Engine engine;
    /**
     * How the commands go out: without waiting for a non-blocking caller; answered on the calling thread (the stage
     * complete on return) for a blocking one.
     */
    private final AsyncLockStore sends;
    private final LockRequest request;
    private final String token;
    private final HandOffNotices.Subscription subscription;
    private final OnNotice onNotice;
    private volatile Grant grant;
    /** When the last answered try was sent, the store's clock when it ran, when its answer came, and the answer. */
    private long lastSentNanos;
    private long lastServerMillis;
    private long answeredNanos;
    private AcquireResult last;
    private int answers;
    /** Whether the token may hold the lock or a queue entry in the store that no hold owns. */
    private boolean mayHoldSomething;
    /** Whether a command of the token got no reply: it may still run. */
    private boolean outcomeUnknown;
    private boolean closed;

    /**
     * @param onNotice called when a hand-off notice for the token arrives; {@code null} for a single try, which
     *        does not queue and hears nothing
     * @param async whether the commands are sent without waiting (a non-blocking caller), or answered on the
     *        calling thread
     */
    public Attempt(Engine engine, LockRequest request, String token, OnNotice onNotice, boolean async) {
        this.engine = engine;
        this.sends = async ? engine.sends() : engine.callerSends();
        this.request = request;
        this.token = token;
        this.onNotice = onNotice;
        HandOffNotices notices = engine.notices();
        this.subscription = onNotice != null && notices != null ? notices.await(request.name(), token, this) : null;
    }

    /**
     * Told when a hand-off notice for the token arrives: the acquisition itself, so that no callback object is made
     * per attempt.
     */
    @FunctionalInterface
    public interface OnNotice {

        void noticeArrived();
    }

    @Override
    public void accept(Grant handedOver) {
        grant = handedOver;
        onNotice.noticeArrived();
    }

    /** A try is about to go out: from now on the token may hold something. Returns the moment it is sent. */
    public long sending() {
        mayHoldSomething = true;
        return engine.runtime().nanoTime();
    }

    /**
     * Sends one atomic try: the caller hands the answer to {@link #received}, a failure to {@link #noAnswer} (the
     * command may have run).
     *
     * @param queue whether the token queues (or refreshes its entry) if the lock is busy
     */
    public CompletionStage<AcquireResult> send(boolean queue) {
        if (request.takesPermits()) {
            return sends.takePermits(request.name(), token, request.permits(), request.limit(),
                    request.leaseMillis(), queue, engine.waiterTimeoutMillis());
        }
        return sends.tryAcquire(request.name(), token, request.leaseMillis(), queue, engine.waiterTimeoutMillis());
    }

    /** The answer to a try sent at {@code sentNanos}, recorded. */
    public AcquireResult received(long sentNanos, AcquireResult answer, boolean queue) {
        lastSentNanos = sentNanos;
        answeredNanos = engine.runtime().nanoTime();
        lastServerMillis = answer.serverTimeMillis();
        last = answer;
        answers++;
        if (!answer.acquired() && !queue) {
            mayHoldSomething = false;
        }
        return answer;
    }

    /** A command of the token got no answer: it may still run, so its clean-up waits for a while longer. */
    public void noAnswer() {
        outcomeUnknown = true;
    }

    /** How many tries were answered. */
    public int answers() {
        return answers;
    }

    /** The last answer. */
    AcquireResult last() {
        return last;
    }

    /** When the last answer came (monotonic clock). */
    public long answeredNanos() {
        return answeredNanos;
    }

    /** How long the last answered try took, from its send to its answer. */
    public long lastReplyNanos() {
        return answeredNanos - lastSentNanos;
    }

    /** The hold the last (acquiring) answer gave, or {@code null} if too little of its lease is left to count. */
    public Hold acquired() {
        return counted(last.fencingToken(), lastSentNanos);
    }

    /** Whether leaving (or withdrawing) has to ask the store: the token may hold something there. */
    public boolean mustLeave() {
        return mayHoldSomething;
    }

    /**
     * The wait ran out: leave the queue, keeping the lock if it was handed over meanwhile; the caller hands the
     * outcome to {@link #left}.
     */
    CompletionStage<AcquireResult> leave() {
        if (engine.queue() == null) { // a store without a queue: giving up abandons what a try left
            return withdraw().thenApply(done -> NOT_HANDED_OVER);
        }
        return StoreCalls.uninterrupted(() -> sends.leaveQueue(request.name(), token, request.leaseMillis()));
    }

    /** What leaving, sent at {@code sentNanos}, answered: the hold handed over meanwhile (if it still counts). */
    public Hold left(long sentNanos, AcquireResult answer, Throwable failure) {
        if (failure != null) {
            outcomeUnknown = true; // the clean-up takes over
            return null;
        }
        mayHoldSomething = answer.acquired();
        return answer.acquired() ? counted(answer.fencingToken(), sentNanos) : null;
    }

    /** The registry closes: leave the queue and anything handed over; the outcome goes to {@link #withdrawn}. */
    CompletionStage<Void> withdraw() {
        return StoreCalls.uninterrupted(() -> sends.abandon(request.name(), token));
    }

    public void withdrawn(Throwable failure) {
        if (failure == null) {
            mayHoldSomething = false;
        } else {
            outcomeUnknown = true;
        }
    }

    /**
     * The hold a hand-off notice gave, if enough of its claim is left to trust it without asking the store
     * ({@link TrustedHolds#fromNotice}); else {@code null}, and the next try asks the store.
     */
    public Hold noticeHold() {
        return owning(TrustedHolds.fromNotice(engine, request, token, grant, lastSentNanos, lastServerMillis));
    }

    /**
     * Leaves nothing behind: stops hearing notices and leaves the queue entry, and the lock if it was taken or
     * handed over. At once while the store answers, so the next release does not hand the lock to this token; in
     * the background if a command got no reply (the store may not answer now, and the command may still run) or
     * the caller's wait is over ({@code late}).
     */
    public void close(boolean late) {
        if (closed) {
            return;
        }
        closed = true;
        if (subscription != null) {
            subscription.close();
        }
        if (!mayHoldSomething) {
            return;
        }
        if (outcomeUnknown || late) {
            engine.cleanup().abandon(request.name(), token, request.leaseMillis(), outcomeUnknown);
            return;
        }
        // sent now, ahead of this registry's next command on the name; if it fails, the clean-up takes over
        StoreCalls.uninterrupted(() -> sends.abandon(request.name(), token)).whenComplete((done, failure) -> {
            if (failure != null) {
                engine.cleanup().abandon(request.name(), token, request.leaseMillis(), true);
            }
        });
    }

    /**
     * The hold a reply to a command sent at {@code sentNanos} gave, if enough of its lease is left to count
     * ({@link TrustedHolds#fromReply}); if not, the token keeps what it may hold, so that it is abandoned on close.
     */
    private Hold counted(long fencingToken, long sentNanos) {
        return owning(TrustedHolds.fromReply(engine, request, token, fencingToken, sentNanos));
    }

    /** A hold made of the token's answer owns what the token held: closing the attempt then leaves nothing. */
    private Hold owning(Hold hold) {
        if (hold != null) {
            mayHoldSomething = false;
        }
        return hold;
    }
}
