package dev.distlock.benchmarks.jmh;

import dev.distlock.core.LockRegistry;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * The cost of {@code @DistributedLock}: an annotated call against the same work through
 * {@link LockRegistry#executeLocked} with the key built in Java, both on the in-memory registry, and the key's
 * SpEL evaluation alone.
 *
 * <p>The interceptor's own key evaluator is package-private, so {@link #keyEvaluation()} repeats what it does per
 * call: a {@link MethodBasedEvaluationContext} over a root object, the shared resolvers copied from a template
 * context, and the parsed expression evaluated to a String.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnnotationOverheadBenchmark {

    static final String KEY_EXPRESSION = "'k:' + #id";
    private static final Duration WAIT = Duration.ofSeconds(1);

    private long id = 42; // not final: JMH must not fold it into a constant
    private ConfigurableApplicationContext context;
    private Inventory annotated;
    private Inventory plain;
    private LockRegistry registry;

    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final StandardEvaluationContext template = new StandardEvaluationContext();
    private Expression keyExpression;
    private Method method;

    @Setup
    public void start() throws NoSuchMethodException {
        context = AnnotationBenchmarkApplication.start();
        annotated = context.getBean(Inventory.class);
        registry = context.getBean(LockRegistry.class);
        plain = new Inventory();
        keyExpression = new SpelExpressionParser().parseExpression(KEY_EXPRESSION);
        method = Inventory.class.getMethod("reserve", long.class);
        template.applyDelegatesTo(new StandardEvaluationContext()); // as the interceptor: resolvers made up front
    }

    @TearDown
    public void stop() {
        context.close();
    }

    /** Through the proxy: interceptor, cached operation, SpEL key, lock, work, unlock. */
    @Benchmark
    public long annotated() {
        return annotated.reserve(id);
    }

    /** The same lock and work without the annotation layer. */
    @Benchmark
    public long direct() {
        return registry.executeLocked("k:" + id, WAIT, () -> plain.reserve(id));
    }

    /** The SpEL key of one call, evaluated the way the interceptor does it. */
    @Benchmark
    public String keyEvaluation() {
        Object[] args = {id}; // the proxy hands the interceptor boxed arguments too
        MethodBasedEvaluationContext evaluation =
                new MethodBasedEvaluationContext(new KeyRoot(method, args, plain), method, args, parameterNames);
        template.applyDelegatesTo(evaluation);
        return keyExpression.getValue(evaluation, String.class);
    }

    /**
     * Stands for the interceptor's (package-private) root object of the same shape.
     *
     * @param method the called method
     * @param args its arguments
     * @param target the called object
     */
    public record KeyRoot(Method method, Object[] args, Object target) {
    }
}
