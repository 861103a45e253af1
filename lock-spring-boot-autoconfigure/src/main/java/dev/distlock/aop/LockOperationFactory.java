package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.Lease;
import dev.distlock.core.support.LockNames;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;

/**
 * Turns one {@link DistributedLock} declaration on one method into a {@link LockOperation}: parses the
 * name, resolves and parses the durations, picks the label and the return-type handler. It never throws
 * for a bad declaration; it records every problem, so the validator can report them all at startup.
 */
final class LockOperationFactory {

    private static final Pattern INDEXED_ARGUMENT = Pattern.compile("[ap](\\d+)");

    private static final String ALLOWED_DURATIONS = "allowed: a duration such as 500ms, 5s or PT5S, or a ${...} "
            + "placeholder that resolves to one";

    private final LockKeyEvaluator keys;
    private final LockDefaults defaults;
    private final BeanFactory beanFactory;
    private final AdviceMode mode;

    LockOperationFactory(LockKeyEvaluator keys, LockDefaults defaults, BeanFactory beanFactory, AdviceMode mode) {
        this.keys = keys;
        this.defaults = defaults;
        this.beanFactory = beanFactory;
        this.mode = mode;
    }

    LockOperation create(DistributedLock annotation, Method method, Class<?> targetClass) {
        String description = ClassUtils.getQualifiedMethodName(method, targetClass);
        List<String> problems = new ArrayList<>();
        Problems report = problem -> problems.add("@DistributedLock on " + description + ": " + problem);

        String unreachable = AdviceModes.unreachable(method, mode);
        if (unreachable != null) {
            report.add(unreachable);
        }
        String name = resolve("name", annotation.name(), report);
        Expression expression = null;
        Set<String> beans = Set.of();
        if (name == null) {
            name = annotation.name();
        } else if (name.isBlank()) {
            report.add("name is empty; give a literal name or a SpEL expression starting with "
                    + LockNameSyntax.STARTS);
        } else if (!annotation.literal() && LockNameSyntax.isExpression(name)) {
            expression = parse(name, method, report);
            beans = expression != null ? ExpressionReferences.of(expression).beans() : Set.of();
        } else {
            checkLiteral(name, annotation.literal(), report);
        }
        Duration wait = duration("timeout", annotation.timeout(), defaults.waitTimeout(), report);
        if (wait != null && wait.isNegative()) {
            report.add("timeout '" + annotation.timeout() + "' is negative; allowed: 0 (one try) or more");
        }
        Duration fixedLease = duration("lease", annotation.lease(), null, report);
        if (fixedLease != null && Lease.problem(fixedLease, false) != null) {
            report.add("lease '" + annotation.lease() + "' " + Lease.problem(fixedLease, false));
        }
        Duration holdAtLeast = duration("holdAtLeast", annotation.holdAtLeast(), Duration.ZERO, report);
        if (holdAtLeast != null && (holdAtLeast.isNegative() || holdAtLeast.compareTo(Lease.MAX) > 0)) {
            report.add("holdAtLeast '" + annotation.holdAtLeast() + "' is out of range; allowed: 0 (release at once) "
                    + "up to " + Lease.MAX.toDays() + " days");
        }
        if (annotation.permits() < 0) {
            report.add("permits = " + annotation.permits() + " is negative; allowed: 0 (a lock, one call at a time) or "
                    + "1 and more (at most that many calls at once, across every instance)");
        }
        if (annotation.permits() != 0 && annotation.mode() != DistributedLock.Mode.EXCLUSIVE) {
            report.add("permits = " + annotation.permits() + " and mode = " + annotation.mode() + " cannot be "
                    + "combined; allowed: permits with mode = EXCLUSIVE (a concurrency limit), or mode = READ or WRITE "
                    + "without permits (a read-write lock)");
        }
        ReturnHandler handler = null;
        try {
            handler = ReturnHandlers.forMethod(method);
        } catch (IllegalArgumentException unsupported) {
            report.add(unsupported.getMessage());
        }
        if (handler != null && annotation.onTimeout() == DistributedLock.TimeoutAction.SKIP
                && ReturnHandlers.skippedCallBreaksKotlinNullSafety(method, handler)) {
            report.add("onTimeout = SKIP returns null when the lock stays busy, but the function's return type is not "
                    + "nullable, so its caller would fail later with a NullPointerException; allowed: a nullable "
                    + "return type (T?), Unit, or onTimeout = FAIL");
        }
        if (!problems.isEmpty()) {
            return new LockOperation(method, targetClass, description, name, null, null, beans, null, null, null,
                    label(annotation, name, expression, targetClass, method), annotation.onTimeout(),
                    annotation.permits(), annotation.mode(), null, List.copyOf(problems));
        }
        Lease lease = fixedLease != null ? Lease.fixed(fixedLease) : defaults.defaultLease();
        return new LockOperation(method, targetClass, description, name, expression == null ? name : null,
                expression, beans, wait, lease, holdAtLeast, label(annotation, name, expression, targetClass, method),
                annotation.onTimeout(), annotation.permits(), annotation.mode(), handler, List.of());
    }

    private Expression parse(String name, Method method, Problems report) {
        Expression expression;
        try {
            expression = keys.parse(name);
        } catch (ParseException ex) {
            report.add("name '" + name + "' is not valid SpEL (" + ex.getMessage() + "); a name starting with "
                    + LockNameSyntax.STARTS + " is SpEL, anything else is a literal");
            return null;
        }
        String[] parameters = keys.parameterNames(method);
        for (String variable : ExpressionReferences.of(expression).variables()) {
            if (!isKnownVariable(variable, method, parameters)) {
                report.add("name '" + name + "' refers to #" + variable + ", which is not a parameter of the method; "
                        + "allowed: " + allowedVariables(method, parameters));
            }
        }
        return expression;
    }

    /**
     * A literal must be a valid lock name, and one with {@code #} or {@code '} is refused unless declared
     * literal: it is almost always an expression missing its leading quote ({@code "order:#id"}), which would
     * make every call share one lock.
     */
    private static void checkLiteral(String name, boolean declaredLiteral, Problems report) {
        try {
            LockNames.validate(name);
        } catch (InvalidLockNameException invalid) {
            report.add("name is not a valid lock name: " + invalid.getMessage());
            return;
        }
        int mark = declaredLiteral ? -1 : firstExpressionMark(name);
        if (mark < 0) {
            return;
        }
        String prefix = name.substring(0, mark);
        String expression = prefix.indexOf('\'') < 0 && name.charAt(mark) == '#'
                ? "'" + prefix + "' + " + name.substring(mark)
                : "an expression starting with " + LockNameSyntax.STARTS;
        report.add("name '" + name + "' is a literal (it does not start with " + LockNameSyntax.STARTS
                + "), yet contains '" + name.charAt(mark) + "': every call would share the one lock '" + name + "'. To compute the name "
                + "from the arguments write " + expression + "; if the name is meant as written, add literal = true");
    }

    private static int firstExpressionMark(String name) {
        int hash = name.indexOf('#');
        int quote = name.indexOf('\'');
        return hash < 0 ? quote : quote < 0 ? hash : Math.min(hash, quote);
    }

    private static boolean isKnownVariable(String variable, Method method, String[] parameters) {
        if (variable.equals("root") || variable.equals("this")) {
            return true;
        }
        if (parameters != null && Arrays.asList(parameters).contains(variable)) {
            return true;
        }
        var indexed = INDEXED_ARGUMENT.matcher(variable);
        return indexed.matches() && indexed.group(1).length() < 6
                && Integer.parseInt(indexed.group(1)) < method.getParameterCount();
    }

    private static String allowedVariables(Method method, String[] parameters) {
        List<String> allowed = new ArrayList<>();
        int count = method.getParameterCount();
        if (parameters != null) {
            Arrays.stream(parameters).map(parameter -> "#" + parameter).forEach(allowed::add);
        } else if (count > 0) {
            allowed.add("(parameter names are not available: compile with -parameters)");
        }
        if (count > 0) {
            allowed.add(count == 1 ? "#p0/#a0" : "#p0..#p" + (count - 1) + "/#a0..#a" + (count - 1));
        }
        allowed.add("#root.method, #root.methodName, #root.args, #root.target, #root.targetClass");
        allowed.add("@beanName");
        return String.join(", ", allowed);
    }

    /** The duration an attribute sets, {@code fallback} when it is empty, {@code null} after a problem. */
    private Duration duration(String attribute, String value, Duration fallback, Problems report) {
        if (value.isBlank()) {
            return fallback;
        }
        String resolved = resolve(attribute, value, report);
        if (resolved == null) {
            return null;
        }
        try {
            return LockDurations.parse(resolved);
        } catch (IllegalArgumentException unparsable) {
            String shown = resolved.equals(value) ? "'" + value + "'" : "'" + value + "' (resolved to '" + resolved + "')";
            report.add(attribute + " " + shown + " is not a duration; " + ALLOWED_DURATIONS);
            return null;
        }
    }

    /** {@code value} with its {@code ${...}} placeholders resolved, or {@code null} after a problem. */
    private String resolve(String attribute, String value, Problems report) {
        if (!value.contains("${")) {
            return value;
        }
        String resolved;
        try {
            resolved = beanFactory instanceof ConfigurableBeanFactory configurable
                    ? configurable.resolveEmbeddedValue(value) : value;
        } catch (IllegalArgumentException unresolvable) {
            report.add(attribute + " '" + value + "' has an unresolvable placeholder (" + unresolvable.getMessage()
                    + "); " + allowedFor(attribute));
            return null;
        }
        if (resolved == null || resolved.contains("${")) {
            report.add(attribute + " '" + value + "' has an unresolvable placeholder; " + allowedFor(attribute));
            return null;
        }
        return resolved;
    }

    private static String allowedFor(String attribute) {
        return attribute.equals("name") ? "allowed: placeholders of properties the environment has"
                : ALLOWED_DURATIONS;
    }

    private static String label(DistributedLock annotation, String name, Expression expression,
            Class<?> targetClass, Method method) {
        if (!annotation.label().isBlank()) {
            return annotation.label();
        }
        if (!name.isBlank() && expression == null && (annotation.literal() || !LockNameSyntax.isExpression(name))) {
            return name;
        }
        return ClassUtils.getUserClass(targetClass).getSimpleName() + "." + method.getName();
    }

    /** Collects the problems of one declaration. */
    @FunctionalInterface
    private interface Problems {

        void add(String problem);
    }
}
