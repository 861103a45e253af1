package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

class DistributedLockValidatorTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(LockTestConfiguration.class);

    @Test
    void aSpelSyntaxErrorFailsStartup() {
        assertStartupFails(SyntaxError.class, message -> message
                .contains("SyntaxError.lock").contains("name '#orderId +' is not valid SpEL")
                .contains("a name starting with #, ', @, T( or { is SpEL"));
    }

    @Test
    void anUnknownParameterNameFailsStartupListingTheAllowedVariables() {
        assertStartupFails(UnknownParameter.class, message -> message
                .contains("UnknownParameter.lock").contains("refers to #ordrId, which is not a parameter")
                .contains("allowed: #orderId, #region, #p0..#p1/#a0..#a1, #root.method"));
    }

    @Test
    void aFunctionCallFailsStartupSinceNoFunctionsAreRegistered() {
        assertStartupFails(FunctionCall.class, message -> message
                .contains("FunctionCall.lock").contains("refers to #orderId, which is not a parameter"));
    }

    @Test
    void anIndexedArgumentOutOfRangeFailsStartup() {
        assertStartupFails(IndexOutOfRange.class, message -> message
                .contains("IndexOutOfRange.lock").contains("refers to #p3").contains("#p0..#p1"));
    }

    @Test
    void aReferenceToAMissingBeanFailsStartup() {
        assertStartupFails(MissingBean.class, message -> message
                .contains("MissingBean.lock").contains("refers to @nope, but there is no bean of that name"));
    }

    @Test
    void anUnparsableTimeoutFailsStartup() {
        assertStartupFails(BadTimeout.class, message -> message
                .contains("BadTimeout.lock").contains("timeout '5 parsecs' is not a duration")
                .contains("allowed: a duration such as 500ms, 5s or PT5S"));
    }

    @Test
    void anUnresolvablePlaceholderFailsStartup() {
        assertStartupFails(UnresolvablePlaceholder.class, message -> message
                .contains("UnresolvablePlaceholder.lock").contains("lease '${lock.lease}'")
                .contains("unresolvable placeholder"));
    }

    @Test
    void aPlaceholderThatResolvesToNoDurationFailsStartupShowingBoth() {
        runner.withUserConfiguration(ResolvedPlaceholders.class).withPropertyValues("lock.wait=soon", "lock.lease=1m")
                .run(context -> assertStartupFailure(context.getStartupFailure(), message -> message
                        .contains("timeout '${lock.wait}' (resolved to 'soon') is not a duration")));
    }

    @Test
    void aPlaceholderThatResolvesToADurationIsUsed() {
        runner.withUserConfiguration(ResolvedPlaceholders.class).withPropertyValues("lock.wait=0", "lock.lease=1m")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    InMemoryLockRegistry other = InMemoryLockRegistry.builder()
                            .store(context.getBean(InMemoryLockStore.class)).build();
                    other.obtain("placeholders").lock();
                    // a wait of 0 from the property: one try, the message says so
                    assertThatThrownBy(() -> context.getBean(ResolvedPlaceholders.class).lock())
                            .isInstanceOf(LockAcquisitionTimeoutException.class).hasMessageContaining("within 0ms");
                    other.close();
                });
    }

    @Test
    void aNegativeTimeoutFailsStartup() {
        assertStartupFails(NegativeTimeout.class, message -> message
                .contains("NegativeTimeout.lock").contains("timeout '-1s' is negative; allowed: 0 (one try) or more"));
    }

    @Test
    void aLeaseUnderTheShortestFailsStartupSayingWhatIsAllowed() {
        assertStartupFails(TinyLease.class, message -> message
                .contains("TinyLease.lock").contains("lease '500us' must be between 100ms and 365 days")
                .contains("TinyLease.twoMillis").contains("lease '2ms' must be between 100ms and 365 days")
                .contains("too little time to count"));
    }

    @Test
    void anEmptyNameFailsStartup() {
        assertStartupFails(EmptyName.class, message -> message.contains("EmptyName.lock").contains("name is empty"));
    }

    @Test
    void aFutureThatIsNoCompletionStageFailsStartup() {
        assertStartupFails(UnsupportedFuture.class, message -> message
                .contains("UnsupportedFuture.lock").contains("java.util.concurrent.Future is not supported")
                .contains("CompletionStage and CompletableFuture"));
    }

    @Test
    void aReactiveTypeOtherThanMonoAndFluxFailsStartup() {
        assertStartupFails(UnsupportedPublisher.class, message -> message
                .contains("UnsupportedPublisher.lock").contains("org.reactivestreams.Publisher is not supported")
                .contains("only Mono and Flux"));
    }

    @Test
    void aClassLevelNameIsCheckedAgainstEveryPublicMethod() {
        assertStartupFails(ClassLevel.class, message -> message
                .contains("ClassLevel.withoutId").contains("refers to #id").doesNotContain("ClassLevel.withId"));
    }

    @Test
    void everyProblemOfTheContextIsListedAtOnce() {
        assertStartupFails(SeveralProblems.class, message -> message
                .contains("SeveralProblems.first").contains("SeveralProblems.second")
                .contains("timeout 'x' is not a duration").contains("lease 'y' is not a duration"));
    }

    @Test
    void methodsTheProxyCannotInterceptFailStartupInsteadOfRunningUnlocked() {
        assertStartupFails(Unproxyable.class, message -> message
                .contains("Unproxyable.hidden: the method is private")
                .contains("Unproxyable.sealed: the method is final")
                .contains("Unproxyable.shared: the method is static")
                .contains("allowed: a non-private, non-static, non-final method"));
    }

    @Test
    void aLiteralWithAHashFailsStartupShowingTheExpressionItProbablyMeant() {
        assertStartupFails(HashInLiteral.class, message -> message
                .contains("HashInLiteral.lock").contains("name 'order:#id' is a literal")
                .contains("every call would share the one lock 'order:#id'")
                .contains("write 'order:' + #id").contains("add literal = true"));
    }

    @Test
    void aLiteralWithAQuoteFailsStartupToo() {
        assertStartupFails(QuoteInLiteral.class, message -> message
                .contains("QuoteInLiteral.lock").contains("name 'order:'+#id' is a literal").contains("'''")
                .contains("add literal = true"));
    }

    @Test
    void aLiteralThatIsNoValidLockNameFailsStartup() {
        assertStartupFails(TooLongLiteral.class, message -> message
                .contains("TooLongLiteral.lock").contains("name is not a valid lock name")
                .contains("at most 1024 characters"));
    }

    @Test
    void anUnresolvablePlaceholderInTheNameFailsStartup() {
        assertStartupFails(UnresolvableName.class, message -> message
                .contains("UnresolvableName.lock").contains("name '${lock.missing}' has an unresolvable placeholder"));
    }

    @Test
    void holdAtLeastIsCheckedLikeTheOtherDurations() {
        assertStartupFails(BadHoldAtLeast.class, message -> message
                .contains("BadHoldAtLeast.unparsable").contains("holdAtLeast 'a while' is not a duration")
                .contains("BadHoldAtLeast.negative").contains("holdAtLeast '-5s' is out of range"));
    }

    @Test
    void validDeclarationsStartTheApplication() {
        runner.withBean("keys", Valid.class).run(context -> assertThat(context).hasNotFailed());
    }

    private void assertStartupFails(Class<?> bean, Consumer<AbstractStringAssert<?>> message) {
        runner.withBean(bean).withBean("keys", Valid.class)
                .run(context -> assertStartupFailure(context.getStartupFailure(), message));
    }

    private static void assertStartupFailure(Throwable failure, Consumer<AbstractStringAssert<?>> message) {
        assertThat(failure).as("startup failure").isNotNull();
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(InvalidDistributedLockException.class)
                .hasMessageStartingWith("Invalid @DistributedLock declarations:");
        message.accept(assertThat(cause.getMessage()));
    }

    static class HashInLiteral {

        @DistributedLock(name = "order:#id")
        public void lock(long id) {
        }
    }

    static class QuoteInLiteral {

        @DistributedLock(name = "order:'+#id")
        public void lock(long id) {
        }
    }

    static class TooLongLiteral {

        @DistributedLock(name = TooLongLiteral.NAME)
        public void lock() {
        }

        static final String NAME = "n123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
                + "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678";
    }

    static class UnresolvableName {

        @DistributedLock(name = "${lock.missing}")
        public void lock() {
        }
    }

    static class BadHoldAtLeast {

        @DistributedLock(name = "a", holdAtLeast = "a while")
        public void unparsable() {
        }

        @DistributedLock(name = "b", holdAtLeast = "-5s")
        public void negative() {
        }
    }

    static class SyntaxError {

        @DistributedLock(name = "#orderId +")
        public void lock(long orderId) {
        }
    }

    static class UnknownParameter {

        @DistributedLock(name = "#ordrId")
        public void lock(long orderId, String region) {
        }
    }

    static class FunctionCall {

        @DistributedLock(name = "#orderId(#id)")
        public void lock(long id) {
        }
    }

    static class IndexOutOfRange {

        @DistributedLock(name = "#p3")
        public void lock(long orderId, String region) {
        }
    }

    static class MissingBean {

        @DistributedLock(name = "@nope.key(#p0)")
        public void lock(long orderId) {
        }
    }

    static class Unproxyable {

        @DistributedLock(name = "a")
        private void hidden() {
        }

        @DistributedLock(name = "b")
        public final void sealed() {
        }

        @DistributedLock(name = "c")
        public static void shared() {
        }
    }

    static class BadTimeout {

        @DistributedLock(name = "x", timeout = "5 parsecs")
        public void lock() {
        }
    }

    static class UnresolvablePlaceholder {

        @DistributedLock(name = "x", lease = "${lock.lease}")
        public void lock() {
        }
    }

    static class ResolvedPlaceholders {

        @DistributedLock(name = "placeholders", timeout = "${lock.wait}", lease = "${lock.lease}")
        public void lock() {
        }
    }

    static class NegativeTimeout {

        @DistributedLock(name = "x", timeout = "-1s")
        public void lock() {
        }
    }

    static class TinyLease {

        @DistributedLock(name = "x", lease = "500us")
        public void lock() {
        }

        @DistributedLock(name = "y", lease = "2ms")
        public void twoMillis() {
        }
    }

    static class EmptyName {

        @DistributedLock(name = " ")
        public void lock() {
        }
    }

    static class UnsupportedFuture {

        @DistributedLock(name = "x")
        public Future<String> lock() {
            return null;
        }
    }

    static class UnsupportedPublisher {

        @DistributedLock(name = "x")
        public Publisher<String> lock() {
            return null;
        }
    }

    @DistributedLock(name = "#id")
    static class ClassLevel {

        public void withId(String id) {
        }

        public void withoutId(String name) {
        }
    }

    static class SeveralProblems {

        @DistributedLock(name = "a", timeout = "x")
        public void first() {
        }

        @DistributedLock(name = "b", lease = "y")
        public void second() {
        }
    }

    /** Everything allowed: also serves as the bean that {@code @keys} refers to. */
    static class Valid {

        @DistributedLock(name = "#root.methodName + #root.targetClass.simpleName + #root.args.length")
        public void root() {
        }

        @DistributedLock(name = "@keys.key(#p0) + #a0 + #id", timeout = "0", lease = "PT1M", holdAtLeast = "30s")
        public void beanAndArguments(String id) {
        }

        @DistributedLock(name = "{1, 2}.?[#this > 1].size() + ''", literal = true, timeout = "500ms", lease = "100ms")
        public void selection() {
        }

        public String key(String id) {
            return id;
        }
    }
}
