package dev.distlock.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The package rules of lock-core. The API, the SPI and the runtime know nothing of the engine. The engine is layered,
 * each package using only those below it: its time and threads ({@code engine.runtime}), how it calls the store
 * ({@code engine.store}), holds and their names ({@code engine.hold}), who a registry is ({@code engine.presence}),
 * the engine's context ({@code engine}), acquisitions ({@code engine.acquire}), and on top the registry and its
 * handles ({@code core.support}), which the engine never reaches back to. A store reaches the engine only through
 * what is made for backends. No two packages depend on each other.
 */
class EngineArchitectureTest {

    private static final String FACADE = "dev.distlock.core.support..";
    private static final String ENGINE = "dev.distlock.core.engine..";

    /** What a backend may use of the registry package: the registry it extends, its builder, the name rules. */
    private static final Set<String> FOR_BACKENDS = Set.of("StoreLockRegistry", "LockRegistryBuilder", "LockNames");
    /** What a backend may use of the engine: the time rule by which a store judges a reply still valid. */
    private static final String TIME_RULE = "dev.distlock.core.engine.hold.HoldClock";

    private static final JavaClasses LOCK_CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.distlock");

    @Test
    void theApiTheSpiAndTheRuntimeKnowNothingOfTheEngine() {
        noClasses().that().resideInAnyPackage("dev.distlock.core", "dev.distlock.core.spi..",
                "dev.distlock.core.runtime..").should().dependOnClassesThat().resideInAnyPackage(ENGINE, FACADE)
                .check(LOCK_CORE);
    }

    @Test
    void storesReachTheEngineOnlyThroughWhatIsMadeForBackends() {
        noClasses().that().resideInAnyPackage("dev.distlock.redis..", "dev.distlock.memory..",
                "dev.distlock.redlock..").should().dependOnClassesThat(notForBackends()).check(LOCK_CORE);
    }

    @Test
    void theEngineKnowsNothingOfTheRegistryAndItsHandles() {
        noClasses().that().resideInAPackage(ENGINE).should().dependOnClassesThat().resideInAPackage(FACADE)
                .check(LOCK_CORE);
    }

    @Test
    void eachPartOfTheEngineUsesOnlyThePartsBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("registry").definedBy(FACADE)
                .layer("acquire").definedBy("dev.distlock.core.engine.acquire..")
                .layer("engine").definedBy("dev.distlock.core.engine")
                .layer("presence").definedBy("dev.distlock.core.engine.presence..")
                .layer("hold").definedBy("dev.distlock.core.engine.hold..")
                .layer("store").definedBy("dev.distlock.core.engine.store..")
                .layer("runtime").definedBy("dev.distlock.core.engine.runtime..")
                .whereLayer("registry").mayNotBeAccessedByAnyLayer()
                .whereLayer("acquire").mayOnlyBeAccessedByLayers("registry")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("registry", "acquire")
                .whereLayer("presence").mayOnlyBeAccessedByLayers("registry", "acquire", "engine")
                .whereLayer("hold").mayOnlyBeAccessedByLayers("registry", "acquire", "engine")
                .whereLayer("store").mayOnlyBeAccessedByLayers("registry", "acquire", "engine", "presence", "hold")
                .whereLayer("runtime").mayOnlyBeAccessedByLayers("registry", "acquire", "engine", "presence", "hold",
                        "store")
                .check(LOCK_CORE);
    }

    @Test
    void noPackageLoops() {
        slices().matching("dev.distlock.(**)").should().beFreeOfCycles().check(LOCK_CORE);
    }

    private static DescribedPredicate<JavaClass> notForBackends() {
        return DescribedPredicate.describe("the engine and the registry package, but " + FOR_BACKENDS + " and "
                + TIME_RULE, type -> {
                    String name = type.getName();
                    int nested = name.indexOf('$');
                    String topLevel = nested < 0 ? name : name.substring(0, nested);
                    if (type.getPackageName().equals("dev.distlock.core.support")) {
                        return !FOR_BACKENDS.contains(topLevel.substring(topLevel.lastIndexOf('.') + 1));
                    }
                    return type.getPackageName().startsWith("dev.distlock.core.engine") && !topLevel.equals(TIME_RULE);
                });
    }
}
