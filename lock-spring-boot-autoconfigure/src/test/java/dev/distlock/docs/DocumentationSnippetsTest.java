package dev.distlock.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java example of README.md and docs/*.md compiles against distlock as built: one javac run over all of them
 * ({@link MarkdownSnippets} says how a block becomes a class). Kotlin, YAML and XML blocks are not checked.
 */
class DocumentationSnippetsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyJavaExampleCompiles(@TempDir Path classes) throws IOException {
        List<MarkdownSnippets.Snippet> snippets = new ArrayList<>(MarkdownSnippets.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            for (Path page : docs.filter(path -> path.toString().endsWith(".md")).sorted().toList()) {
                snippets.addAll(MarkdownSnippets.of(page));
            }
        }
        List<MarkdownSnippets.Snippet> compiled = snippets.stream().filter(snippet -> !snippet.skipped()).toList();
        assertThat(compiled).as("Java examples found in README.md and docs/").hasSizeGreaterThan(15);

        List<JavaFileObject> sources = new ArrayList<>();
        for (int i = 0; i < compiled.size(); i++) {
            sources.add(new Source(i, compiled.get(i)));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-implicit:none", "-Xlint:none",
                    "-classpath", testClassPath(), "-d", classes.toString());
            javac.getTask(null, files, diagnostics, options, null, sources).call();
        }

        List<String> errors = diagnostics.getDiagnostics().stream()
                .filter(diagnostic -> diagnostic.getKind() == Diagnostic.Kind.ERROR)
                .map(DocumentationSnippetsTest::describe)
                .toList();
        assertThat(errors).as("compile errors in the documentation's Java examples").isEmpty();
    }

    /** The test class path: surefire's own, when it runs the tests from a manifest-only jar. */
    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static String describe(Diagnostic<? extends JavaFileObject> diagnostic) {
        if (diagnostic.getSource() instanceof Source source) {
            MarkdownSnippets.Snippet snippet = source.snippet;
            return ROOT.relativize(snippet.file()) + ":" + snippet.markdownLine(diagnostic.getLineNumber()) + ": "
                    + diagnostic.getMessage(Locale.ROOT);
        }
        return diagnostic.toString();
    }

    /** One example as a source file of its own package. */
    private static final class Source extends SimpleJavaFileObject {

        private final MarkdownSnippets.Snippet snippet;
        private final String code;

        Source(int index, MarkdownSnippets.Snippet snippet) {
            super(java.net.URI.create("string:///snippets/s" + index + "/" + primaryType(snippet) + ".java"),
                    Kind.SOURCE);
            this.snippet = snippet;
            this.code = snippet.source("snippets.s" + index);
        }

        /** A public top-level type must live in a file of its name; other blocks become class Snippet. */
        private static String primaryType(MarkdownSnippets.Snippet snippet) {
            var matcher = java.util.regex.Pattern.compile("(?m)^public (?:final |abstract )*(?:class|record|interface|enum) (\\w+)")
                    .matcher(snippet.code());
            return matcher.find() ? matcher.group(1) : "Snippet";
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
