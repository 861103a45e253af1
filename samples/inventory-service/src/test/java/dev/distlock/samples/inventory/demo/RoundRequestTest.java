package dev.distlock.samples.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundRequestTest {

    @Test
    void aRequestSurvivesItsLineUnchanged() {
        RoundRequest locked = new RoundRequest(true, 1500, 4, List.of("sku-1", "sku-2"));
        RoundRequest unlocked = new RoundRequest(false, 1, 1, List.of("sku-1"));

        assertThat(RoundRequest.parse(locked.toLine())).isEqualTo(locked);
        assertThat(RoundRequest.parse(unlocked.toLine())).isEqualTo(unlocked);
    }

    @Test
    void quitAndAnythingElseAreNoRequest() {
        assertThat(RoundRequest.parse(DemoProtocol.QUIT)).isNull();
        assertThat(RoundRequest.parse("run locked 5")).isNull();
    }
}
