package dev.distlock.core.engine.acquire;

import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.spi.Grant;

/**
 * Whether what an {@link Attempt}'s token heard, a reply that took the lock or a hand-off notice, leaves enough of
 * its lease to be trusted here ({@link HoldClock}'s rules), and the hold it then makes; {@code null} if not. Static,
 * so that the uncontended path makes no object for it; what the token may still hold stays the attempt's.
 */
final class TrustedHolds {

    private TrustedHolds() {
    }

    /**
     * The hold a reply to a command sent at {@code sentNanos} gave, if enough of its lease is left to count
     * ({@link HoldClock#validEnough}).
     */
    static Hold fromReply(Engine engine, LockRequest request, String token, long fencingToken, long sentNanos) {
        long lease = request.leaseMillis();
        long validUntil = HoldClock.validUntil(sentNanos, lease);
        long now = engine.runtime().nanoTime();
        if (!HoldClock.validEnough(validUntil, lease, now)) {
            return null;
        }
        return request.hold(engine.runtime(), token, fencingToken, validUntil,
                HoldClock.renewalDue(sentNanos, lease), false, now);
    }

    /**
     * The hold a hand-off notice gave, if enough of its claim is left to trust it without asking the store: the
     * notice says when (on the store's clock) the lock was handed over, and the last try (sent at
     * {@code lastSentNanos}, run at {@code lastServerMillis}) says which local moment that clock's reading follows,
     * so the deadline errs on the early side even if the notice was read late (a paused waiter). A notice of a
     * hand-off older than the last try is stale: that try saw the lock later and did not find it this token's.
     * Otherwise the next try asks the store, which confirms the hold only if it is still this token's. The hold's
     * claim is confirmed (extended to the full lease) a third into it, so a short hold ends before it costs a call.
     */
    static Hold fromNotice(Engine engine, LockRequest request, String token, Grant notice, long lastSentNanos,
            long lastServerMillis) {
        if (notice == null || !engine.notices().trusted() || notice.serverTimeMillis() < lastServerMillis) {
            return null;
        }
        long validUntil = HoldClock.noticeValidUntil(lastSentNanos, notice.serverTimeMillis() - lastServerMillis,
                notice.leaseMillis());
        long now = engine.runtime().nanoTime();
        if (!HoldClock.trustsNotice(validUntil, notice.leaseMillis(), now)) {
            return null;
        }
        return request.hold(engine.runtime(), token, notice.fencingToken(), validUntil,
                HoldClock.confirmationDue(now, validUntil), true, now);
    }
}
