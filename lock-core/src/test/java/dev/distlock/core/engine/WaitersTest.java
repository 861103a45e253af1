package dev.distlock.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WaitersTest {

    private final List<String> woken = new ArrayList<>();

    private Waiters.Waiter waiter(String token) {
        return new Waiters.Waiter() {

            @Override
            public void wakeForClose() {
                woken.add(token);
            }

            @Override
            public String firstToken() {
                return token;
            }
        };
    }

    @Test
    void closingWakesTheWaitersInTheOrderTheirTokensWereIssuedWhateverTheOrderTheyCameIn() {
        Waiters waiters = new Waiters();
        List<String> issued = IntStream.rangeClosed(1, 120).mapToObj(n -> "AbC-prefix:" + n).toList();
        List<String> arrival = new ArrayList<>(issued);
        Collections.shuffle(arrival, new Random(42));
        arrival.forEach(token -> waiters.admit(waiter(token), "job"));

        waiters.withdrawAll();

        assertThat(woken).containsExactlyElementsOf(issued); // "...:9" before "...:10", not the set's own order
    }

    @Test
    void theCloseCompletesOnceEveryWaiterLeftAndAdmitsNoNewOne() {
        Waiters waiters = new Waiters();
        Waiters.Waiter first = waiter("p:1");
        waiters.admit(first, "job");

        var allLeft = waiters.withdrawAll();
        assertThat(allLeft).isNotDone();
        assertThatThrownBy(() -> waiters.admit(waiter("p:2"), "job")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'job'");
        waiters.remove(first);

        assertThat(allLeft).isCompleted();
    }
}
