package dev.distlock.test.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;

/**
 * Records guarded sections, to assert afterwards that they never overlapped and that each ran under its lock.
 * Application code (or a test double of it) wraps the work its lock guards in {@link #run} or {@link #call}.
 */
public final class Journal {

    private final ToLongFunction<String> fencingTokenOf;
    private final List<Section> sections = new ArrayList<>();
    private long sequence;

    Journal(ToLongFunction<String> fencingTokenOf) {
        this.fencingTokenOf = fencingTokenOf;
    }

    /** Runs {@code body} as a section guarded by the lock {@code name}, recording its entry and exit. */
    public void run(String name, Runnable body) {
        Objects.requireNonNull(body, "body");
        call(name, () -> {
            body.run();
            return null;
        });
    }

    /** Runs {@code body} as a section guarded by the lock {@code name} and returns its result. */
    public <T> T call(String name, Callable<T> body) {
        int index = enter(Objects.requireNonNull(name, "name"));
        try {
            return body.call();
        } catch (RuntimeException | Error ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        } finally {
            leave(index);
        }
    }

    /** The sections of {@code name} recorded so far, in order of entry. */
    public synchronized List<Section> sections(String name) {
        return sections.stream().filter(section -> section.name().equals(name)).toList();
    }

    /**
     * Asserts that no two sections of {@code name} ran at the same time.
     *
     * @throws AssertionError naming the first pair that overlapped
     */
    public void assertNeverOverlapped(String name) {
        List<Section> of = sections(name);
        for (int i = 0; i < of.size(); i++) {
            for (int j = i + 1; j < of.size(); j++) {
                if (of.get(i).overlaps(of.get(j))) {
                    throw new AssertionError("sections of " + name + " overlapped: " + of.get(i) + " and "
                            + of.get(j));
                }
            }
        }
    }

    /**
     * Asserts that {@code name} has sections and that each held the lock with one fencing token from entry to exit.
     *
     * @throws AssertionError if none ran, or naming the first that ran without the lock or lost it meanwhile
     */
    public void assertRanUnderLock(String name) {
        List<Section> of = sections(name);
        if (of.isEmpty()) {
            throw new AssertionError("no section of " + name + " ran");
        }
        for (Section section : of) {
            if (!section.underLock()) {
                throw new AssertionError("a section of " + name + " ran without holding it throughout: " + section);
            }
        }
    }

    /** Forgets every section. */
    public synchronized void clear() {
        sections.clear();
    }

    private int enter(String name) {
        long token = fencingTokenOf.applyAsLong(name);
        synchronized (this) {
            sections.add(new Section(name, Thread.currentThread().getName(), sequence++, -1, token, 0));
            return sections.size() - 1;
        }
    }

    private void leave(int index) {
        Section entered;
        synchronized (this) {
            if (index >= sections.size()) {
                return; // cleared while the section ran
            }
            entered = sections.get(index);
        }
        long token = fencingTokenOf.applyAsLong(entered.name());
        synchronized (this) {
            if (index >= sections.size() || sections.get(index) != entered) {
                return;
            }
            sections.set(index, new Section(entered.name(), entered.thread(), entered.entered(), sequence++,
                    entered.tokenAtEntry(), token));
        }
    }
}
