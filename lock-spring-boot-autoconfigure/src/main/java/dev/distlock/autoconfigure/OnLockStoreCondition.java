package dev.distlock.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The condition of {@link ConditionalOnLockStore}: binds the store and the Redlock nodes as the properties do. */
final class OnLockStoreCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        DistlockProperties.Store wanted = (DistlockProperties.Store) metadata
                .getAnnotationAttributes(ConditionalOnLockStore.class.getName()).get("value");
        // bound without the checks: an invalid value fails later, naming its property
        DistlockProperties.Store inUse = Binder.get(context.getEnvironment())
                .bindOrCreate(DistlockProperties.PREFIX, DistlockProperties.class).getStore();
        String message = "distlock store is " + inUse.name().toLowerCase(java.util.Locale.ROOT);
        return inUse == wanted ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
    }
}
