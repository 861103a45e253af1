package dev.distlock.release;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * One artifact's version folder in the staging repository. A snapshot is staged under a timestamped name that its
 * {@code maven-metadata.xml} gives (the latest deploy wins, so repeated builds without {@code clean} are read right);
 * a release under its plain name.
 */
record StagedArtifact(Path folder, String artifactId, String version, String snapshotStamp) {

    static StagedArtifact of(Path folder, String artifactId, String version) throws Exception {
        if (!version.endsWith("-SNAPSHOT")) {
            return new StagedArtifact(folder, artifactId, version, null);
        }
        Path metadata = folder.resolve("maven-metadata.xml");
        if (!Files.isRegularFile(metadata)) {
            throw new AssertionError("nothing staged for " + artifactId + ": no " + metadata);
        }
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(metadata.toFile());
        Element snapshot = (Element) document.getElementsByTagName("snapshot").item(0);
        String stamp = text(snapshot, "timestamp") + "-" + text(snapshot, "buildNumber");
        return new StagedArtifact(folder, artifactId, version, stamp);
    }

    private static String text(Element element, String name) {
        NodeList found = element.getElementsByTagName(name);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().trim();
    }

    /** The staged file with {@code classifier} (or none) and {@code extension}. */
    Path file(String classifier, String extension) {
        String fileVersion = snapshotStamp == null ? version
                : version.substring(0, version.length() - "SNAPSHOT".length()) + snapshotStamp;
        return folder.resolve(artifactId + "-" + fileVersion + (classifier == null ? "" : "-" + classifier) + "."
                + extension);
    }

    Path pom() {
        return file(null, "pom");
    }
}
