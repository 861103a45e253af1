package dev.distlock.aop;

import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.support.LockNames;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.expression.spel.support.StandardTypeLocator;
import org.springframework.util.ObjectUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Parses lock names that are SpEL and evaluates them per call. Parsing happens once per operation (the
 * operation keeps the parsed expression); a call only builds a {@link MethodBasedEvaluationContext}, which
 * resolves {@code #name}, {@code #p0} and {@code #a0} lazily, and borrows the shared resolvers (beans,
 * types, property accessors with their caches) from one template context.
 */
final class LockKeyEvaluator {

    private final ExpressionParser parser;
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final StandardEvaluationContext template = new StandardEvaluationContext();

    LockKeyEvaluator(BeanFactory beanFactory) {
        this(beanFactory, new SpelExpressionParser());
    }

    LockKeyEvaluator(BeanFactory beanFactory, ExpressionParser parser) {
        this.parser = parser;
        if (beanFactory != null) {
            template.setBeanResolver(new BeanFactoryResolver(beanFactory));
        }
        if (beanFactory instanceof ConfigurableBeanFactory configurable) {
            template.setTypeLocator(new StandardTypeLocator(configurable.getBeanClassLoader()));
        }
        // initialise the template's lazy delegates now, not concurrently on the first calls
        template.applyDelegatesTo(new StandardEvaluationContext());
    }

    /**
     * Parses a name expression.
     *
     * @throws org.springframework.expression.ParseException if it is not valid SpEL
     */
    Expression parse(String expression) {
        return parser.parseExpression(expression);
    }

    /** The parameter names of {@code method}, or {@code null} when it was compiled without them. */
    String[] parameterNames(Method method) {
        return parameterNames.getParameterNames(method);
    }

    /** Whether a class's {@code toString()} is {@link Object}'s: a name made of it would differ on every call. */
    private static final ClassValue<Boolean> IDENTITY_TEXT = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return ReflectionUtils.findMethod(type, "toString").getDeclaringClass() == Object.class;
        }
    };

    /**
     * The names of one call of an operation whose name is SpEL: one name, or several when the expression gives a
     * collection or an array (e.g. {@code {'account:' + #from, 'account:' + #to}}), each a string or turned into one
     * with its {@code toString()}.
     *
     * @throws LockKeyEvaluationException if the expression throws, or gives {@code null}, no name, a blank string, no
     *         valid lock name (see {@link LockNames#validate}), an {@link Optional}, or a value whose class has no
     *         {@code toString()} of its own (its text would be its identity, a new lock on every call)
     */
    List<String> evaluate(LockOperation operation, Object[] args, Object target) {
        Method method = operation.method();
        LockExpressionRoot root = new LockExpressionRoot(method, args, target, operation.targetClass());
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, method, args, parameterNames);
        template.applyDelegatesTo(context);
        Object value;
        try {
            value = operation.keyExpression().getValue(context);
        } catch (RuntimeException ex) {
            throw failure(operation, "failed: " + ex.getMessage(), ex);
        }
        if (value != null && value.getClass().isArray()) {
            value = Arrays.asList(ObjectUtils.toObjectArray(value));
        }
        if (!(value instanceof Collection<?> several)) {
            return List.of(name(operation, value, ""));
        }
        if (several.isEmpty()) {
            throw failure(operation, "evaluated to no name (an empty " + value.getClass().getSimpleName() + ")", null);
        }
        List<String> names = new ArrayList<>(several.size());
        int index = 0;
        for (Object each : several) {
            names.add(name(operation, each, " at [" + index++ + "]"));
        }
        return names;
    }

    /** {@code value} as a valid lock name; {@code where} says which element of several it is. */
    private static String name(LockOperation operation, Object value, String where) {
        if (value == null) {
            throw failure(operation, "evaluated to null" + where, null);
        }
        if (value instanceof Optional<?>) {
            throw failure(operation, "evaluated to an Optional" + where + ": unwrap it in the expression (e.g. "
                    + "#param.orElseThrow())", null);
        }
        if (!(value instanceof CharSequence) && IDENTITY_TEXT.get(value.getClass())) {
            throw failure(operation, "evaluated to a " + value.getClass().getName() + where + ", whose toString() is "
                    + "Object's (its identity, another lock on every call): name a property of it, or give the class "
                    + "a toString() of its own", null);
        }
        String name = value.toString();
        if (name.isBlank()) {
            throw failure(operation, "evaluated to a blank string" + where, null);
        }
        try {
            return LockNames.validate(name);
        } catch (InvalidLockNameException invalid) {
            throw failure(operation, "evaluated to an invalid lock name" + where + " (" + invalid.getMessage() + ")",
                    invalid);
        }
    }

    private static LockKeyEvaluationException failure(LockOperation operation, String problem, Throwable cause) {
        return new LockKeyEvaluationException(operation.label(), operation.description(), operation.name(), problem,
                cause);
    }
}
