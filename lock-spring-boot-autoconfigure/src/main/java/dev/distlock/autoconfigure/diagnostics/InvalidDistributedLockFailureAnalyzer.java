package dev.distlock.autoconfigure.diagnostics;

import dev.distlock.aop.InvalidDistributedLockException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns {@code @DistributedLock} declarations that cannot work into Spring Boot's "APPLICATION FAILED TO
 * START" report: every problem in the description, how to write each attribute in the action.
 *
 * @since 0.1.0
 */
public final class InvalidDistributedLockFailureAnalyzer
        extends AbstractFailureAnalyzer<InvalidDistributedLockException> {

    static final String ACTION = """
            Correct the @DistributedLock declarations listed above:
              - name: a literal such as "nightly-report", or SpEL exactly when it starts with #, ', @, T( or { (a list of several names), \
            e.g. "'order:' + #order.id"; a literal that must contain # or ' needs literal = true; ${...} \
            placeholders are resolved first
              - timeout, lease, holdAtLeast: a duration such as 500ms, 5s or PT5S, or a ${...} placeholder \
            that resolves to one; timeout 0 means one try
              - the method: not private, final or static, returning a plain value, CompletionStage, \
            CompletableFuture, Mono or Flux
              - a LockRegistry bean: spring-boot-starter-data-redis with one RedisConnectionFactory, \
            distlock.store=memory for tests, or your own bean""";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidDistributedLockException cause) {
        StringBuilder description = new StringBuilder("Some @DistributedLock declarations cannot work:\n");
        cause.getProblems().forEach(problem -> description.append("\n    - ").append(problem));
        return new FailureAnalysis(description.toString(), ACTION, cause);
    }
}
