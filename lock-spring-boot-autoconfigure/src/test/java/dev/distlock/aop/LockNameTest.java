package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.DistributedLockException;
import dev.distlock.core.HeldLock;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.LockRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

class LockNameTest {

    private static AnnotationConfigApplicationContext context;
    private static Orders orders;

    @BeforeAll
    static void start() {
        context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                Map.of("lock.nightly", "nightly-from-property", "lock.tenant", "tenant-a")));
        context.register(Config.class);
        context.refresh();
        orders = context.getBean(Orders.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void aLiteralNameIsTheKeyAndTheLabel() {
        LockContext lock = orders.nightly();

        assertThat(lock.key()).isEqualTo("nightly-report");
        assertThat(lock.label()).isEqualTo("nightly-report");
    }

    @Test
    void aNameDeclaredLiteralIsTakenAsWrittenEvenWithHashAndQuote() {
        assertThat(orders.literalWithHash(7).key()).isEqualTo("orders:#orderId + 1");
        assertThat(orders.literalWithHash(7).label()).isEqualTo("orders:#orderId + 1");
        assertThat(orders.literalLookingLikeSpel().key()).isEqualTo("#it's-literal");
    }

    @Test
    void placeholdersResolveInLiteralNamesAndInsideExpressions() {
        assertThat(orders.fromProperty().key()).isEqualTo("nightly-from-property");
        assertThat(orders.fromProperty().label()).isEqualTo("nightly-from-property");
        assertThat(orders.prefixedByProperty(3).key()).isEqualTo("tenant-a:3");
    }

    @Test
    void aKeyLongerThanALockNameMayBeFailsTheCallNamingMethodExpressionAndProblem() {
        int before = orders.invocations();

        assertThatThrownBy(() -> orders.byName("x".repeat(1025))).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("Orders.byName").hasMessageContaining("'#name'")
                .hasMessageContaining("invalid lock name").hasMessageContaining("at most 1024 characters")
                .hasCauseInstanceOf(InvalidLockNameException.class);
        assertThat(orders.invocations()).isEqualTo(before);
    }

    @Test
    void aKeyWithALoneSurrogateFailsTheCall() {
        assertThatThrownBy(() -> orders.byName("order-\uD800")).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("Orders.byName").hasMessageContaining("unpaired surrogate");
        assertThatThrownBy(() -> orders.byName("")).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("Orders.byName");
    }

    @Test
    void aParameterNameIsEvaluatedAgainstTheArgumentAndNumbersAreConvertedNotCast() {
        assertThat(orders.byId(42L).key()).isEqualTo("42");
        assertThat(orders.byId(43L).key()).isEqualTo("43");
    }

    @Test
    void aConcatenationReadsAPropertyOfAnArgument() {
        assertThat(orders.byOrder(new Order("A-1", null)).key()).isEqualTo("order:A-1");
    }

    @Test
    void argumentsAreAlsoReachableByIndexAsP0AndA0() {
        assertThat(orders.byIndex("x", 5).key()).isEqualTo("x/5");
    }

    @Test
    void theRootObjectGivesTheMethodAndTargetClass() {
        assertThat(orders.byRoot().key()).isEqualTo("byRoot@Orders");
    }

    @Test
    void beanReferencesCallABeanAndTypeReferencesAStaticMethod() {
        assertThat(orders.byBean(9).key()).isEqualTo("prefix-9");
        assertThat(orders.byType(-3).key()).isEqualTo("3");
    }

    @Test
    void theLabelIsExplicitOrTheLiteralNameOrTheClassAndMethodButNeverTheKey() {
        assertThat(orders.byId(42L).label()).isEqualTo("Orders.byId");
        assertThat(orders.labelled(42L).label()).isEqualTo("payments");
        assertThat(orders.labelled(42L).key()).isEqualTo("42");
    }

    @Test
    void theLabelIsPassedToTheRegistry() {
        HeldLock held = orders.heldInside(5);

        assertThat(held.name()).isEqualTo("5");
        assertThat(held.label()).isEqualTo("Orders.heldInside");
        assertThat(held.renewed()).isTrue();
    }

    @Test
    void anExplicitLeaseIsFixedAndTheDefaultLeaseIsRenewed() {
        HeldLock held = orders.fixedLease();

        assertThat(held.renewed()).isFalse();
        assertThat(held.remainingLease()).isPositive().isLessThanOrEqualTo(java.time.Duration.ofSeconds(20));
    }

    @Test
    void aNullKeyFailsTheCallNamingTheMethodAndExpressionWithoutInvokingIt() {
        int before = orders.invocations();

        assertThatThrownBy(() -> orders.byCustomer(new Order("A-3", new Customer(null))))
                .isInstanceOf(LockKeyEvaluationException.class).isInstanceOf(DistributedLockException.class)
                .hasMessageContaining("Orders.byCustomer").hasMessageContaining("'#order.customer.name'")
                .hasMessageContaining("evaluated to null");
        assertThat(orders.invocations()).isEqualTo(before);
    }

    @Test
    void aKeyWhoseTextWouldBeItsIdentityFailsTheCallInsteadOfLockingANewNameEachTime() {
        int before = orders.invocations();

        assertThatThrownBy(() -> orders.byObject(new Object())).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("Orders.byObject").hasMessageContaining("'#ticket'")
                .hasMessageContaining("java.lang.Object").hasMessageContaining("toString() is Object's");
        assertThatThrownBy(() -> orders.byObject(java.util.Optional.of("A-1")))
                .isInstanceOf(LockKeyEvaluationException.class).hasMessageContaining("an Optional");
        assertThat(orders.invocations()).isEqualTo(before);
        // a record, an enum and a number each say what they are
        assertThat(orders.byObject(new Customer("ann")).key()).isEqualTo("Customer[name=ann]");
        assertThat(orders.byObject(java.time.DayOfWeek.MONDAY).key()).isEqualTo("MONDAY");
    }

    @Test
    void anArrayOfPrimitivesIsSeveralNamesLikeAnArrayOfObjects() {
        assertThat(orders.heldByIds(new long[] {7, 3})).extracting(HeldLock::name).containsExactlyInAnyOrder("3", "7");
    }

    @Test
    void aBlankKeyFailsTheCall() {
        int before = orders.invocations();

        assertThatThrownBy(() -> orders.byName("  ")).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("Orders.byName").hasMessageContaining("'#name'")
                .hasMessageContaining("blank");
        assertThat(orders.invocations()).isEqualTo(before);
    }

    @Test
    void anExpressionThatThrowsFailsTheCallWithTheCause() {
        int before = orders.invocations();

        assertThatThrownBy(() -> orders.byCustomer(new Order("A-2", null)))
                .isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("Orders.byCustomer").hasMessageContaining("'#order.customer.name'")
                .hasMessageContaining("failed").hasCauseInstanceOf(RuntimeException.class)
                .satisfies(ex -> assertThat(((LockKeyEvaluationException) ex).getExpression())
                        .isEqualTo("#order.customer.name"));
        assertThatThrownBy(() -> orders.byBean(-1)).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("no negative ids").hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThat(orders.invocations()).isEqualTo(before);
    }

    @Test
    void methodsWithoutTheAnnotationAreNotLocked() {
        assertThat(orders.unlocked()).isEmpty();
    }

    record Order(String id, Customer customer) {

        public String getId() {
            return id;
        }

        public Customer getCustomer() {
            return customer;
        }
    }

    record Customer(String name) {
    }

    static class Orders {

        private final AtomicInteger invocations = new AtomicInteger();
        private final LockRegistry registry;

        Orders(LockRegistry registry) {
            this.registry = registry;
        }

        @DistributedLock(name = "nightly-report")
        public LockContext nightly() {
            return current();
        }

        @DistributedLock(name = "orders:#orderId + 1", literal = true)
        public LockContext literalWithHash(long orderId) {
            return current();
        }

        @DistributedLock(name = "#it's-literal", literal = true)
        public LockContext literalLookingLikeSpel() {
            return current();
        }

        @DistributedLock(name = "${lock.nightly}")
        public LockContext fromProperty() {
            return current();
        }

        @DistributedLock(name = "'${lock.tenant}:' + #id")
        public LockContext prefixedByProperty(int id) {
            return current();
        }

        @DistributedLock(name = "#orderId")
        public LockContext byId(long orderId) {
            return current();
        }

        @DistributedLock(name = "#orderId", label = "payments")
        public LockContext labelled(long orderId) {
            return current();
        }

        @DistributedLock(name = "'order:' + #order.id")
        public LockContext byOrder(Order order) {
            return current();
        }

        @DistributedLock(name = "#order.customer.name")
        public LockContext byCustomer(Order order) {
            return current();
        }

        @DistributedLock(name = "#name")
        public LockContext byName(String name) {
            return current();
        }

        @DistributedLock(name = "#ticket")
        public LockContext byObject(Object ticket) {
            return current();
        }

        @DistributedLock(name = "#ids")
        public List<HeldLock> heldByIds(long[] ids) {
            invocations.incrementAndGet();
            return registry.heldLocks();
        }

        @DistributedLock(name = "#p0 + '/' + #a1")
        public LockContext byIndex(String first, int second) {
            return current();
        }

        @DistributedLock(name = "#root.method.name + '@' + #root.targetClass.simpleName")
        public LockContext byRoot() {
            return current();
        }

        @DistributedLock(name = "@keyPrefixes.forId(#id)")
        public LockContext byBean(int id) {
            return current();
        }

        @DistributedLock(name = "T(java.lang.Math).abs(#id)")
        public LockContext byType(int id) {
            return current();
        }

        @DistributedLock(name = "#id")
        public HeldLock heldInside(int id) {
            invocations.incrementAndGet();
            return only(registry.heldLocks());
        }

        @DistributedLock(name = "fixed", lease = "20s")
        public HeldLock fixedLease() {
            invocations.incrementAndGet();
            return only(registry.heldLocks());
        }

        /** A method, because the fields of a CGLIB proxy are its own, not the target's. */
        public int invocations() {
            return invocations.get();
        }

        public java.util.Optional<LockContext> unlocked() {
            return LockContext.find();
        }

        private LockContext current() {
            invocations.incrementAndGet();
            assertThat(LockContext.current().isHeld()).isTrue();
            return LockContext.current();
        }

        private static HeldLock only(List<HeldLock> held) {
            assertThat(held).hasSize(1);
            return held.get(0);
        }
    }

    static class KeyPrefixes {

        public String forId(int id) {
            if (id < 0) {
                throw new IllegalArgumentException("no negative ids");
            }
            return "prefix-" + id;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Orders orders(LockRegistry registry) {
            return new Orders(registry);
        }

        @Bean
        KeyPrefixes keyPrefixes() {
            return new KeyPrefixes();
        }
    }
}
