package dev.distlock.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The package rules of lock-core: the API, the SPI and the runtime know nothing of the engine; a store reaches the
 * engine only through the few classes made for backends; the engine knows nothing of the registry and its handles
 * above it (it is wired once, in {@code Engine}); and no two packages depend on each other.
 */
class EngineArchitectureTest {

    private static final String ENGINE = "dev.distlock.core.support..";

    /** What a backend may use of the engine: the registry it extends, its builder, the name rules, the time rule. */
    private static final Set<String> FOR_BACKENDS = Set.of("StoreLockRegistry", "LockRegistryBuilder", "LockNames",
            "HoldClock");

    /** The registry and its handles: the façade over the engine, which the engine never reaches back to. */
    private static final Set<String> FACADE = Set.of("StoreLockRegistry", "Acquirer", "StoreLock", "StoreDetachedLock",
            "StoreNamesLock", "StoreDetachedNames");

    private static final JavaClasses LOCK_CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.distlock");

    @Test
    void theApiTheSpiAndTheRuntimeKnowNothingOfTheEngine() {
        noClasses().that().resideInAnyPackage("dev.distlock.core", "dev.distlock.core.spi..",
                "dev.distlock.core.runtime..").should().dependOnClassesThat().resideInAPackage(ENGINE)
                .check(LOCK_CORE);
    }

    @Test
    void storesReachTheEngineOnlyThroughWhatIsMadeForBackends() {
        noClasses().that().resideInAnyPackage("dev.distlock.redis..", "dev.distlock.memory..",
                "dev.distlock.redlock..").should().dependOnClassesThat(engineInternals()).check(LOCK_CORE);
    }

    @Test
    void theEngineKnowsNothingOfTheRegistryAndItsHandles() {
        noClasses().that(engineClasses(false)).should().dependOnClassesThat(engineClasses(true)).check(LOCK_CORE);
    }

    @Test
    void noPackageLoops() {
        slices().matching("dev.distlock.(**)").should().beFreeOfCycles().check(LOCK_CORE);
    }

    private static DescribedPredicate<JavaClass> engineInternals() {
        return DescribedPredicate.describe("engine internals (all of " + ENGINE + " but " + FOR_BACKENDS + ")",
                type -> type.getPackageName().equals("dev.distlock.core.support")
                        && !FOR_BACKENDS.contains(topLevelName(type)));
    }

    private static DescribedPredicate<JavaClass> engineClasses(boolean facade) {
        return DescribedPredicate.describe((facade ? "the façade " : "the engine below the façade ") + FACADE,
                type -> type.getPackageName().equals("dev.distlock.core.support")
                        && FACADE.contains(topLevelName(type)) == facade);
    }

    private static String topLevelName(JavaClass type) {
        String name = type.getName().substring(type.getPackageName().length() + 1);
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }
}
