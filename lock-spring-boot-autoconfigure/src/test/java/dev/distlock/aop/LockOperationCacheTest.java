package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.ParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** Expressions are parsed once per (method, target class); a call only builds an evaluation context. */
class LockOperationCacheTest {

    @Test
    void anExpressionIsParsedOnceHoweverOftenItsMethodIsLookedUpAndEvaluated() throws Exception {
        CountingParser parser = new CountingParser();
        LockKeyEvaluator keys = new LockKeyEvaluator(null, parser);
        LockOperationSource source = new LockOperationSource(keys, LockTestConfiguration.DEFAULTS, null);
        Method method = Orders.class.getMethod("pay", String.class);

        LockOperation first = source.find(method, Orders.class);
        for (int i = 0; i < 1_000; i++) {
            LockOperation operation = source.find(method, Orders.class);
            assertThat(operation).isSameAs(first);
            assertThat(keys.evaluate(operation, new Object[] {"o-" + i}, new Orders())).containsExactly("order:o-" + i);
        }

        assertThat(parser.parses).hasValue(1);
    }

    @Test
    void theSameMethodOnAnotherTargetClassIsASeparateOperation() throws Exception {
        CountingParser parser = new CountingParser();
        LockOperationSource source = new LockOperationSource(new LockKeyEvaluator(null, parser),
                LockTestConfiguration.DEFAULTS, null);
        Method method = Orders.class.getMethod("pay", String.class);

        LockOperation onOrders = source.find(method, Orders.class);
        LockOperation onSpecial = source.find(method, SpecialOrders.class);

        assertThat(onSpecial).isNotSameAs(onOrders);
        assertThat(onSpecial.label()).isEqualTo("SpecialOrders.pay");
        assertThat(parser.parses).hasValue(2);
    }

    @Test
    void callsThroughTheProxyAddNothingToTheCache() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Config.class)) {
            Orders orders = context.getBean(Orders.class);
            LockOperationSource source = context.getBean(DistributedLockInterceptor.class).operationSource();
            orders.pay("warm-up");
            int size = source.size();

            for (int i = 0; i < 200; i++) {
                assertThat(orders.pay("o-" + i)).isEqualTo("paid o-" + i);
            }

            assertThat(source.size()).isEqualTo(size);
        }
    }

    static class Orders {

        @DistributedLock(name = "'order:' + #id")
        public String pay(String id) {
            return "paid " + id;
        }
    }

    static class SpecialOrders extends Orders {
    }

    /** A SpEL parser that counts how often it parses. */
    static class CountingParser implements ExpressionParser {

        final AtomicInteger parses = new AtomicInteger();
        private final SpelExpressionParser delegate = new SpelExpressionParser();

        @Override
        public Expression parseExpression(String expressionString) throws ParseException {
            parses.incrementAndGet();
            return delegate.parseExpression(expressionString);
        }

        @Override
        public Expression parseExpression(String expressionString, ParserContext context) throws ParseException {
            parses.incrementAndGet();
            return delegate.parseExpression(expressionString, context);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Orders orders() {
            return new Orders();
        }
    }
}
