package dev.distlock.redis;

import dev.distlock.core.spi.Renewal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * Splits a batch of renewals into the script calls Redis takes (one on a single server; one per hash slot on a
 * cluster, where a script's keys must share a slot), sends them at once and gives each renewal its call's answer.
 */
final class RenewalCalls {

    private final RedisKeys keys;
    private final boolean cluster;

    RenewalCalls(RedisKeys keys, boolean cluster) {
        this.keys = keys;
        this.cluster = cluster;
    }

    /**
     * The renewals sent by {@code call}, once per call Redis takes.
     *
     * @return for each renewal, in order, its hold's answer or the failure of the call that carried it
     */
    List<CompletionStage<Boolean>> send(List<Renewal> renewals,
            Function<List<Renewal>, CompletionStage<boolean[]>> call) {
        Map<Integer, List<Integer>> calls = new LinkedHashMap<>();
        for (int i = 0; i < renewals.size(); i++) {
            int slot = cluster ? ClusterSlotHashUtil.calculateSlot(keys.lock(renewals.get(i).name())) : 0;
            calls.computeIfAbsent(slot, any -> new ArrayList<>()).add(i);
        }
        List<CompletionStage<Boolean>> answers = new ArrayList<>(Collections.nCopies(renewals.size(), null));
        calls.values().forEach(positions -> {
            CompletionStage<boolean[]> answered = call.apply(positions.stream().map(renewals::get).toList());
            for (int j = 0; j < positions.size(); j++) {
                int inCall = j;
                answers.set(positions.get(j), answered.thenApply(owned -> owned[inCall]));
            }
        });
        return answers;
    }
}
