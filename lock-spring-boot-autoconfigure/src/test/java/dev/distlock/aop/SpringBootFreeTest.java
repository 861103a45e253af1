package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The annotation and its machinery need plain Spring only, so that a layer without Spring Boot stays
 * possible: no compiled class of theirs refers to a Spring Boot type.
 */
class SpringBootFreeTest {

    @Test
    void theAnnotationAndAopPackagesReferToNoSpringBootClass() throws Exception {
        List<Path> classes = classFilesBeside(DistributedLockInterceptor.class);
        classes.addAll(classFilesBeside(DistributedLock.class));

        assertThat(classes).hasSizeGreaterThan(20);
        assertThat(classes).allSatisfy(file -> assertThat(constantPool(file))
                .as("%s refers to Spring Boot", file.getFileName())
                .doesNotContain("org/springframework/boot/"));
    }

    private static List<Path> classFilesBeside(Class<?> type) throws Exception {
        Path dir = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(type.getPackageName().replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            return new java.util.ArrayList<>(files.filter(file -> file.toString().endsWith(".class")).toList());
        }
    }

    /** Class names in a class file are plain UTF-8 in its constant pool. */
    private static String constantPool(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
