package dev.distlock.fault;

import java.util.ArrayList;
import java.util.List;

/**
 * The protected resource as a careful one behaves: it takes a write only if its fencing token is at least
 * the highest it has seen, and keeps a journal of whose writes it took and refused.
 */
final class FencingOracle {

    private long highest;
    private final List<String> journal = new ArrayList<>();

    /** Offers a write by {@code writer} with {@code fence}; returns whether the resource took it. */
    synchronized boolean write(String writer, long fence) {
        boolean taken = fence >= highest;
        if (taken) {
            highest = fence;
        }
        journal.add((taken ? "took " : "refused ") + writer + " " + fence);
        return taken;
    }

    /**
     * {@code process} writes if it believes it holds its lock (or permit): whether the resource took the write.
     */
    boolean writeBy(LockProcess process, String writer) {
        process.send("write");
        String answer = process.answer(LockProcess.ANSWER_TIMEOUT);
        return answer.startsWith("write ") && write(writer, LockProcess.fence(answer));
    }

    synchronized List<String> journal() {
        return List.copyOf(journal);
    }
}
