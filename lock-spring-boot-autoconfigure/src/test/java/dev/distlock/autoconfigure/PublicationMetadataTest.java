package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** What Maven Central asks of every published artifact, inherited from the parent POM, and the license file. */
class PublicationMetadataTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theParentPomNamesTheLicenseScmUrlAndDevelopers() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(ROOT.resolve("pom.xml").toFile());
        var xpath = XPathFactory.newInstance().newXPath();

        assertThat(xpath.evaluate("/project/name", pom)).isNotBlank();
        assertThat(xpath.evaluate("/project/description", pom)).isNotBlank();
        assertThat(xpath.evaluate("/project/url", pom)).startsWith("https://");
        assertThat(xpath.evaluate("/project/licenses/license/name", pom)).isEqualTo("Apache License, Version 2.0");
        assertThat(xpath.evaluate("/project/scm/connection", pom)).startsWith("scm:git:");
        assertThat(xpath.evaluate("/project/scm/url", pom)).startsWith("https://");
        assertThat(xpath.evaluate("/project/developers/developer/name", pom)).isNotBlank();
        assertThat(xpath.evaluate("/project/build/plugins/plugin[artifactId='maven-source-plugin']"
                + "/executions/execution/goals/goal", pom)).isEqualTo("jar-no-fork");
        assertThat(xpath.evaluate("/project/build/plugins/plugin[artifactId='maven-javadoc-plugin']"
                + "/executions/execution/goals/goal", pom)).isEqualTo("jar");
    }

    @Test
    void theRepositoryCarriesTheApacheLicenseTextAndAChangelog() throws Exception {
        assertThat(Files.readString(ROOT.resolve("LICENSE"))).contains("Apache License", "Version 2.0, January 2004",
                "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
        assertThat(ROOT.resolve("CHANGELOG.md")).exists();
    }
}
