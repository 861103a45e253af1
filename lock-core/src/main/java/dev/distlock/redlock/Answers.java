package dev.distlock.redlock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What the nodes answered to one call, each answer with the node that gave it, and what went wrong on the others.
 * Whether that is enough is {@link Quorum}'s to say.
 *
 * @param <T> what one node answers
 */
final class Answers<T> {

    private final List<Answer<T>> answers = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();

    void add(int node, T value) {
        answers.add(new Answer<>(node, value));
    }

    void fail(Throwable failure) {
        failures.add(failure);
    }

    /** How many nodes answered. */
    int count() {
        return answers.size();
    }

    /** Why the other nodes did not answer. */
    List<Throwable> failures() {
        return failures;
    }

    List<T> values() {
        return values(value -> true);
    }

    List<T> values(Predicate<T> condition) {
        return answers.stream().map(Answer::value).filter(condition).toList();
    }

    List<Answer<T>> matching(Predicate<T> condition) {
        return answers.stream().filter(answer -> condition.test(answer.value())).toList();
    }

    /** What one node answered. */
    record Answer<T>(int node, T value) {
    }
}
