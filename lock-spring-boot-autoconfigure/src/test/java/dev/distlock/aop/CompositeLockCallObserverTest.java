package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.aop.LockCallObserver.AcquireOutcome;
import dev.distlock.aop.LockCallObserver.Acquiring;
import dev.distlock.aop.LockCallObserver.HoldEnd;
import dev.distlock.aop.LockCallObserver.Holding;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Several observers of the same calls: each is told everything, the first one's scopes outermost. */
class CompositeLockCallObserverTest {

    private final List<String> told = new CopyOnWriteArrayList<>();

    @Test
    void noObserverIsNoneAndOneIsItself() {
        Recording only = new Recording("only");

        assertThat(LockCallObserver.of(List.of())).isSameAs(LockCallObserver.NONE);
        assertThat(LockCallObserver.of(List.of(only))).isSameAs(only);
    }

    @Test
    void eachObserverHearsTheAcquireAndTheHoldWithTheFirstOutermost() throws Throwable {
        LockCallObserver both = LockCallObserver.of(List.of(new Recording("a"), new Recording("b")));

        Acquiring acquiring = both.acquiring("job", "job:1", method());
        String tried = acquiring.around(() -> {
            told.add("try");
            return "tried";
        });
        Holding holding = acquiring.acquired(7);
        Object ran = holding.around(() -> {
            told.add("method");
            return "ran";
        });
        holding.ended(HoldEnd.RELEASED, null);

        assertThat(tried).isEqualTo("tried");
        assertThat(ran).isEqualTo("ran");
        assertThat(told).containsExactly("a acquiring job:1", "b acquiring job:1",
                "a enters acquire", "b enters acquire", "try", "b leaves acquire", "a leaves acquire",
                "a acquired 7", "b acquired 7",
                "a enters hold", "b enters hold", "method", "b leaves hold", "a leaves hold",
                "a released", "b released");
    }

    @Test
    void eachObserverHearsAMiss() {
        LockCallObserver both = LockCallObserver.of(List.of(new Recording("a"), new Recording("b")));

        both.acquiring("job", "job:1", method()).missed(AcquireOutcome.SKIPPED, null);

        assertThat(told).containsExactly("a acquiring job:1", "b acquiring job:1", "a skipped", "b skipped");
    }

    private static Method method() {
        try {
            return CompositeLockCallObserverTest.class.getDeclaredMethod("method");
        } catch (NoSuchMethodException impossible) {
            throw new AssertionError(impossible);
        }
    }

    /** One observer writing what it hears, under its name. */
    private final class Recording implements LockCallObserver {

        private final String name;

        Recording(String name) {
            this.name = name;
        }

        @Override
        public Acquiring acquiring(String label, String key, Method method) {
            told.add(name + " acquiring " + key);
            return new Acquiring() {

                @Override
                public <T, E extends Throwable> T around(AcquireAction<T, E> acquire) throws E {
                    told.add(name + " enters acquire");
                    try {
                        return acquire.run();
                    } finally {
                        told.add(name + " leaves acquire");
                    }
                }

                @Override
                public Holding acquired(long fencingToken) {
                    told.add(name + " acquired " + fencingToken);
                    return new Holding() {

                        @Override
                        public Object around(MethodInvoker method) throws Throwable {
                            told.add(name + " enters hold");
                            try {
                                return method.invoke();
                            } finally {
                                told.add(name + " leaves hold");
                            }
                        }

                        @Override
                        public void ended(HoldEnd end, Throwable methodFailure) {
                            told.add(name + " " + end.tagValue());
                        }
                    };
                }

                @Override
                public void missed(AcquireOutcome outcome, Throwable error) {
                    told.add(name + " " + outcome.tagValue());
                }
            };
        }
    }
}
