package dev.distlock.samples.inventory.demo;

import java.util.Arrays;
import java.util.List;

/**
 * What the launcher asks an instance to do in one round, sent as one line on the instance's standard input.
 *
 * @param locked whether reservations go through the locked service or its unguarded twin
 * @param operations how many reservations the instance makes
 * @param threads on how many threads
 * @param skus the SKUs to pick from, at random
 */
record RoundRequest(boolean locked, int operations, int threads, List<String> skus) {

    private static final String COMMAND = "run";

    RoundRequest {
        skus = List.copyOf(skus);
    }

    String toLine() {
        return String.join(" ", COMMAND, locked ? "locked" : "unlocked", Integer.toString(operations),
                Integer.toString(threads), String.join(",", skus));
    }

    /** The request in {@code line}, or null if the line asks for something else (the end). */
    static RoundRequest parse(String line) {
        String[] words = line.split(" ");
        if (words.length != 5 || !words[0].equals(COMMAND)) {
            return null;
        }
        return new RoundRequest(words[1].equals("locked"), Integer.parseInt(words[2]), Integer.parseInt(words[3]),
                Arrays.asList(words[4].split(",")));
    }
}
