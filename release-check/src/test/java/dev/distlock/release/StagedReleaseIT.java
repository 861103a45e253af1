package dev.distlock.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The release rehearsal of {@code ./mvnw verify}: every published module deployed itself to a file repository as it
 * would to a public one (the root POM's {@code stage} execution). Each artifact users can depend on (the
 * {@code dev.distlock} entries of the root POM's dependency management) and the parent POM must be there with what
 * such a repository requires: a POM naming the project, its licence, developers and source control; a jar, a
 * sources jar and a Javadoc jar (generated, or where there is no Java a README saying where the documentation is);
 * a checksum beside each file that matches it.
 */
class StagedReleaseIT {

    @TestFactory
    List<DynamicTest> everyPublishedArtifactIsStagedComplete() throws Exception {
        List<String> published = StagedRelease.publishedArtifacts();
        assertThat(published).as("the root POM's dependency management lists the published modules")
                .contains("lock-core", "lock-spring-boot-starter");
        Pom parent = Pom.read(StagedRelease.staged(StagedRelease.PARENT).pom());
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest(StagedRelease.PARENT, () -> checkPom(StagedRelease.staged(StagedRelease.PARENT).pom(), null)));
        for (String artifact : published) {
            tests.add(DynamicTest.dynamicTest(artifact, () -> checkModule(StagedRelease.staged(artifact), parent)));
        }
        return tests;
    }

    private static void checkModule(StagedArtifact staged, Pom parent) throws Exception {
        checkPom(staged.pom(), parent);
        Path jar = checked(staged.file(null, "jar"));
        Path sources = checked(staged.file("sources", "jar"));
        Path javadoc = checked(staged.file("javadoc", "jar"));
        try (ZipFile classes = new ZipFile(jar.toFile()); ZipFile source = new ZipFile(sources.toFile());
                ZipFile docs = new ZipFile(javadoc.toFile())) {
            assertThat(classes.stream().map(entry -> entry.getName()))
                    .as("test classes in %s", jar.getFileName())
                    .noneMatch(name -> name.matches(".*(Test|Tests|IT)(\\$.*)?\\.class"));
            if (classes.stream().anyMatch(entry -> entry.getName().endsWith(".class"))) {
                assertThat(source.stream().map(entry -> entry.getName())).as("%s", sources.getFileName())
                        .anyMatch(name -> name.endsWith(".java") || name.endsWith(".kt"));
            } else { // the starter: no code, its sources jar says where they are
                assertThat(source.getEntry("README.txt")).as("README.txt in %s", sources.getFileName()).isNotNull();
            }
            // generated Javadoc, or (Kotlin, no code) a README that says where the documentation is
            assertThat(docs.getEntry("index.html") != null || docs.getEntry("README.txt") != null)
                    .as("index.html or README.txt in %s", javadoc.getFileName()).isTrue();
        }
    }

    /** The POM's own or inherited project metadata that public repositories require. */
    private static void checkPom(Path file, Pom parent) throws Exception {
        Pom pom = Pom.read(checked(file));
        assertThat(pom.text("name")).as("name of %s", file.getFileName()).isNotBlank();
        assertThat(pom.text("description")).as("description of %s", file.getFileName()).isNotBlank();
        for (String required : List.of("url", "licenses/license/name", "licenses/license/url",
                "developers/developer/name", "scm/url", "scm/connection")) {
            String value = pom.text(required);
            if (value.isBlank() && parent != null) {
                value = parent.text(required);
            }
            assertThat(value).as("%s of %s (or its parent)", required, file.getFileName()).isNotBlank();
        }
    }

    /** {@code file}, after checking that it is there with SHA-1 and MD5 checksums that match it. */
    private static Path checked(Path file) throws IOException, NoSuchAlgorithmException {
        assertThat(file).as("staged").isRegularFile();
        byte[] content = Files.readAllBytes(file);
        for (String algorithm : Set.of("SHA-1", "MD5")) {
            Path sum = file.resolveSibling(file.getFileName() + "." + algorithm.replace("-", "").toLowerCase());
            assertThat(sum).as("checksum of %s", file.getFileName()).isRegularFile();
            String expected = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
            assertThat(Files.readString(sum).trim()).as("%s of %s", algorithm, file.getFileName())
                    .isEqualTo(expected);
        }
        return file;
    }
}
