package dev.distlock.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

class DistlockRuntimeHintsTests {

    private final RuntimeHints hints = new RuntimeHints();

    @Test
    void everyLuaScriptOfTheRedisRegistryIsARegisteredResource() throws Exception {
        new DistlockRuntimeHints().registerHints(hints, getClass().getClassLoader());
        Resource[] scripts = new PathMatchingResourcePatternResolver().getResources("classpath*:dev/distlock/redis/*.lua");

        assertThat(scripts).hasSizeGreaterThanOrEqualTo(5);
        assertThat(Arrays.stream(scripts).map(Resource::getFilename)).allSatisfy(script -> assertThat(
                RuntimeHintsPredicates.resource().forResource("dev/distlock/redis/" + script)).accepts(hints));
        assertThat(RuntimeHintsPredicates.resource().forResource("dev/distlock/other.txt")).rejects(hints);
    }

    @Test
    void theGettersOfTheExpressionRootMayBeCalledReflectively() {
        new DistlockRuntimeHints().registerHints(hints, getClass().getClassLoader());

        assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(DistlockRuntimeHints.EXPRESSION_ROOT))
                .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
    }

    @Test
    void theRegistrarAndTheProcessorAreRegisteredForSpringAot() {
        SpringFactoriesLoader aot = SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories");

        assertThat(aot.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(DistlockRuntimeHints.class);
        assertThat(aot.load(BeanFactoryInitializationAotProcessor.class))
                .hasAtLeastOneElementOfType(DistributedLockBeanFactoryAotProcessor.class);
    }

    @Test
    void theArgumentTypesThatNameExpressionsReadGetReflectionHintsAndLiteralNamesNone() {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("payments", new RootBeanDefinition(Payments.class));
        DefaultGenerationContext context = new DefaultGenerationContext(new ClassNameGenerator(
                org.springframework.javapoet.ClassName.get(getClass())), new InMemoryGeneratedFiles());

        BeanFactoryInitializationAotContribution contribution =
                new DistributedLockBeanFactoryAotProcessor().processAheadOfTime(beanFactory);
        assertThat(contribution).isNotNull();
        contribution.applyTo(context, null);

        RuntimeHints registered = context.getRuntimeHints();
        assertThat(RuntimeHintsPredicates.reflection().onType(Order.class)
                .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(registered);
        assertThat(RuntimeHintsPredicates.reflection().onType(Report.class)).rejects(registered);
        assertThat(RuntimeHintsPredicates.reflection().onType(Customer.class)).rejects(registered);
    }

    @Test
    void anApplicationWithoutAnnotatedBeansContributesNothing() {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("plain", new RootBeanDefinition(Report.class));

        assertThat(new DistributedLockBeanFactoryAotProcessor().processAheadOfTime(beanFactory)).isNull();
    }

    record Order(String id, List<String> lines) {
    }

    record Report(String name) {
    }

    record Customer(String name) {
    }

    static class Payments {

        @DistributedLock(name = "'order:' + #order.id")
        public void pay(Order order, int attempt) {
        }

        @DistributedLock(name = "nightly-report")
        public void report(Report report) {
        }

        @DistributedLock(name = "#customer.name", literal = true)
        public void literal(Customer customer) {
        }
    }
}
