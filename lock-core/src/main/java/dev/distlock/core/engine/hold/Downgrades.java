package dev.distlock.core.engine.hold;

import dev.distlock.core.engine.store.StoreSends;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write hold of a read-write lock whose owner still reads under it becoming a read hold (a downgrade): counted as a
 * read here first, then narrowed in the store to one permit, which lets the readers queued at the head in, and no
 * writer in between. The hold is never trusted as a write again, whatever the store answers: if the answer is lost or
 * the store failed, the hold may stay exclusive in the store until its last read is released, which keeps others out
 * longer but lets nobody in beside a writer.
 */
public final class Downgrades {

    private static final Logger log = LoggerFactory.getLogger(Downgrades.class);

    private final HoldLifecycle holds;

    public Downgrades(HoldLifecycle holds) {
        this.holds = holds;
    }

    /**
     * Narrows {@code hold}, its owner's write hold with reads inside it, to a read hold. The stage never fails: a hold
     * the store no longer has is found lost (its owner learns at the last unlock), and a store failure is logged.
     */
    public CompletionStage<Void> toRead(Hold hold, StoreSends via) {
        hold.downgradeToRead();
        if (!holds.stillHeld(hold)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        via.whenAnswered(via.store().keepPermits(hold.name, hold.token, 1), (owned, failure) -> {
            if (failure != null) {
                log.warn("Read-write lock '{}': the write hold is a read hold now, but the store could not be told "
                        + "(its other readers wait until this read is released): {}", hold.name, failure.toString());
            } else if (!owned) {
                holds.lose(hold, "downgrading to a read found that the store no longer holds it under this hold's "
                        + "token");
            }
            done.complete(null);
        });
        return done;
    }
}
