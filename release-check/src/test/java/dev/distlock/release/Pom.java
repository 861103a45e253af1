package dev.distlock.release;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** A POM read as XML: the project's own elements, without inheritance or interpolation. */
final class Pom {

    private final Element project;

    private Pom(Element project) {
        this.project = project;
    }

    static Pom read(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(file.toFile());
        return new Pom(document.getDocumentElement());
    }

    /** The text at {@code path} below the project ({@code scm/url}), the first where several match; "" if none. */
    String text(String path) {
        Element at = project;
        for (String step : path.split("/")) {
            at = child(at, step);
            if (at == null) {
                return "";
            }
        }
        return at.getTextContent().trim();
    }

    /** The artifact ids of {@code groupId} in the dependency management, in order. */
    List<String> managedArtifacts(String groupId) {
        List<String> artifacts = new ArrayList<>();
        Element management = child(project, "dependencyManagement");
        Element dependencies = management == null ? null : child(management, "dependencies");
        if (dependencies == null) {
            return artifacts;
        }
        for (Node node = dependencies.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element dependency && groupId.equals(textOf(dependency, "groupId"))) {
                artifacts.add(textOf(dependency, "artifactId"));
            }
        }
        return artifacts;
    }

    private static String textOf(Element element, String name) {
        Element child = child(element, name);
        return child == null ? "" : child.getTextContent().trim();
    }

    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && name.equals(element.getLocalName() != null
                    ? element.getLocalName() : element.getTagName())) {
                return element;
            }
        }
        return null;
    }
}
