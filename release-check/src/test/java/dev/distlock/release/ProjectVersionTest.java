package dev.distlock.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One version everywhere a release must set it ({@code release-check/set-version}): every POM of the repository
 * (modules, samples, benchmarks and the compat builds, whose parent is Spring Boot's and which name distlock's
 * version in {@code distlock.version}), and each {@code dev.distlock} dependency shown in the README and
 * {@code docs/}. A release commit that missed one fails here, offline, before anything is deployed.
 */
class ProjectVersionTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern SHOWN_DEPENDENCY = Pattern.compile(
            "<groupId>dev\\.distlock</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>");

    @Test
    void everyPomNamesTheRootVersion() throws Exception {
        String version = rootVersion();
        List<Path> poms = poms();
        assertThat(poms).as("the POMs found under %s", ROOT).hasSizeGreaterThan(10);
        for (Path file : poms) {
            Pom pom = Pom.read(file);
            String where = ROOT.relativize(file).toString();
            if (pom.text("parent/groupId").equals("dev.distlock")) {
                assertThat(pom.text("parent/version")).as("%s: parent version", where).isEqualTo(version);
            }
            if (pom.text("groupId").startsWith("dev.distlock") && !pom.text("version").isEmpty()) {
                assertThat(pom.text("version")).as("%s: version", where).isEqualTo(version);
            }
            if (!pom.text("properties/distlock.version").isEmpty()) {
                assertThat(pom.text("properties/distlock.version")).as("%s: distlock.version", where)
                        .isEqualTo(version);
            }
        }
    }

    @Test
    void everyDependencyShownToUsersNamesTheRootVersion() throws Exception {
        String version = rootVersion();
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        int shown = 0;
        for (Path page : pages) {
            Matcher dependency = SHOWN_DEPENDENCY.matcher(Files.readString(page));
            while (dependency.find()) {
                shown++;
                assertThat(dependency.group(2)).as("%s: the version of %s", ROOT.relativize(page),
                        dependency.group(1)).isEqualTo(version);
            }
        }
        assertThat(shown).as("dependencies shown in README.md and docs/").isPositive();
    }

    private static String rootVersion() throws Exception {
        String version = Pom.read(ROOT.resolve("pom.xml")).text("version");
        assertThat(version).as("the root POM's version").matches("\\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?");
        return version;
    }

    private static List<Path> poms() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(path -> path.getFileName().toString().equals("pom.xml"))
                    .filter(path -> !ROOT.relativize(path).toString().matches("(.*/)?(target|\\..*)/.*"))
                    .sorted().toList();
        }
    }
}
