package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockStore;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On a store with an asynchronous client (here, one that answers on threads of its own, as Lettuce's event loop
 * does), a hold's commands go out on that client, for non-blocking callers and the background alike, and what the
 * caller chains on a stage never runs on the client's thread.
 */
class AsyncHoldCommandsTest extends ScriptedStoreTest {

    private static final String CLIENT_THREAD = "scripted-client";

    @BeforeEach
    void answerAsynchronously() {
        store.answerAsynchronously();
    }

    /** Renewal, extend, lease read, release and the acquisition's own try: each made by the client, none by a pool. */
    @Test
    void everyCommandOfANonBlockingHoldAndItsRenewalsGoOutOnTheClient() throws Exception {
        DetachedLock held = await(registries.process(events).obtain("job", Lease.renewed(Duration.ofMillis(600)),
                null).lockAsync());
        awaitUntil(() -> store.calls(Op.EXTEND, "job") >= 1); // a renewal, a third into the lease

        await(held.extendAsync(Duration.ofSeconds(5)));
        assertThat(await(held.remainingLeaseAsync())).isPositive();
        await(held.unlockAsync());

        List<ScriptedLockStore.Recorded> calls = store.recorded();
        assertThat(calls).extracting(ScriptedLockStore.Recorded::op)
                .contains(Op.ACQUIRE, Op.EXTEND, Op.REMAINING, Op.RELEASE);
        assertThat(calls).allSatisfy(call -> assertThat(call.thread().getName())
                .as("thread of %s", call.op()).isEqualTo(CLIENT_THREAD));
    }

    /** The client answers on its own thread; the caller's continuation runs on a step thread of the registry. */
    @Test
    void stagesCompleteOnTheRegistrysStepThreadsNeverOnTheClientsThread() throws Exception {
        DetachedLock held = await(registries.process(events).obtain("job").lockAsync());

        assertThat(continuationThread(Op.EXTEND, () -> held.extendAsync(Duration.ofSeconds(5))))
                .startsWith("distlock-async-");
        assertThat(continuationThread(Op.REMAINING, held::remainingLeaseAsync)).startsWith("distlock-async-");
        assertThat(continuationThread(Op.RELEASE, held::unlockAsync)).startsWith("distlock-async-");
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** The thread a continuation chained while {@code op} is in flight (its reply held back) runs on. */
    private String continuationThread(Op op, Supplier<CompletionStage<?>> call) throws Exception {
        ScriptedCall inFlight = store.next(op, "job").holdAfterRunning();
        CompletionStage<?> stage = call.get();
        inFlight.awaitEntered();
        CompletableFuture<String> thread = stage.thenApply(answer -> Thread.currentThread().getName())
                .toCompletableFuture();
        inFlight.proceed();
        return thread.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static <T> T await(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    }
}
