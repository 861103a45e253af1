package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.test.Poll;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ApplicationEvent;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

/**
 * {@link DistlockLeaderInitiator} runs Spring Integration's candidates on distlock's election: one leader per role
 * across registries, the candidate told and the events published in order, a yield letting the other lead, an
 * interrupted {@code onGranted} giving the term up.
 */
@Timeout(30)
class DistlockLeaderInitiatorTest {

    private final InMemoryLockStore store = new InMemoryLockStore();
    private final InMemoryLockRegistry one = InMemoryLockRegistry.builder().store(store).build();
    private final InMemoryLockRegistry two = InMemoryLockRegistry.builder().store(store).build();
    /** What the candidates and the event listener heard, in order. */
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final List<DistlockLeaderInitiator> initiators = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        initiators.forEach(DistlockLeaderInitiator::stop);
        one.close();
        two.close();
    }

    private DistlockLeaderInitiator initiator(String id, InMemoryLockRegistry registry, boolean interrupted) {
        DistlockLeaderInitiator initiator = new DistlockLeaderInitiator(registry, new Candidate() {
            @Override
            public String getRole() {
                return "poller";
            }

            @Override
            public String getId() {
                return id;
            }

            @Override
            public void onGranted(Context context) throws InterruptedException {
                heard.add(id + " granted, leader " + context.isLeader());
                if (interrupted && heard.stream().filter(told -> told.startsWith(id + " granted")).count() == 1) {
                    throw new InterruptedException("(test)");
                }
            }

            @Override
            public void onRevoked(Context context) {
                heard.add(id + " revoked");
            }
        });
        initiator.setApplicationEventPublisher(event -> heard.add(describe(event)));
        initiators.add(initiator);
        return initiator;
    }

    private static String describe(Object event) {
        if (event instanceof OnGrantedEvent granted) {
            return "event granted " + ((DistlockLeaderInitiator) granted.getSource()).getContext().getRole();
        }
        if (event instanceof OnRevokedEvent) {
            return "event revoked";
        }
        return ((ApplicationEvent) event).getClass().getSimpleName();
    }

    private void await(String what, BooleanSupplier condition) {
        Poll.until(what, Duration.ofSeconds(10), () -> condition.getAsBoolean() ? null : "heard " + heard);
    }

    @Test
    void theCandidateIsToldThenTheEventPublishedAndAYieldLetsTheOtherLead() {
        DistlockLeaderInitiator a = initiator("a", one, false);
        DistlockLeaderInitiator b = initiator("b", two, false);
        a.start();
        await("a leads", () -> heard.size() == 2);
        b.start();
        assertThat(a.getContext().isLeader()).isTrue();
        assertThat(a.term()).isPresent();
        assertThat(b.getContext().isLeader()).isFalse();

        a.getContext().yield();

        await("b leads", () -> heard.size() == 6);
        assertThat(heard).containsExactly("a granted, leader true", "event granted poller", "a revoked",
                "event revoked", "b granted, leader true", "event granted poller");
        assertThat(b.term().orElseThrow().epoch()).isGreaterThan(0);
        assertThat(a.isRunning()).as("a stands again").isTrue();
    }

    @Test
    void anInterruptedOnGrantedGivesTheTermUpAndStandsAgain() {
        DistlockLeaderInitiator a = initiator("a", one, true);

        a.start();

        await("a granted twice", () -> heard.stream().filter(told -> told.startsWith("a granted")).count() == 2);
        await("its event", () -> heard.size() == 6);
        assertThat(heard).containsExactly("a granted, leader true", "event granted poller", "a revoked",
                "event revoked", "a granted, leader true", "event granted poller");
    }
}
