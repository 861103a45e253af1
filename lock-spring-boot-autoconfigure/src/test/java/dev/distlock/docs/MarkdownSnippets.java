package dev.distlock.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The ```java blocks of Markdown files, made into compilation units. A block that declares a top-level type is
 * compiled as it is; one that starts with annotations or a method is the body of a class; anything else is the body of
 * a method. Each becomes a class of its own package that extends {@link Examples.Context}, with the imports every
 * example may assume. A block right after {@code <!-- not compiled: reason -->} is left out.
 */
final class MarkdownSnippets {

    /** What every example may use without importing it. */
    static final List<String> IMPORTS = List.of(
            "java.time.*", "java.util.*", "java.util.concurrent.*",
            "dev.distlock.annotation.*", "dev.distlock.aop.*", "dev.distlock.core.*", "dev.distlock.memory.*",
            "dev.distlock.redis.*", "dev.distlock.redlock.*", "dev.distlock.election.*", "dev.distlock.election.spring.*",
            "dev.distlock.test.RedisServerExtension", "dev.distlock.test.scripted.*",
            "dev.distlock.test.scripted.ScriptedLockStore.Op",
            "dev.distlock.docs.Examples.*",
            "org.junit.jupiter.api.Test", "org.junit.jupiter.api.extension.RegisterExtension",
            "org.springframework.beans.factory.annotation.Autowired",
            "org.springframework.boot.test.context.SpringBootTest",
            "org.springframework.test.context.DynamicPropertyRegistry",
            "org.springframework.test.context.DynamicPropertySource",
            "org.springframework.scheduling.annotation.*", "org.springframework.stereotype.*",
            "org.springframework.context.annotation.Bean", "org.springframework.context.event.EventListener",
            "org.springframework.transaction.annotation.Transactional",
            "org.springframework.data.redis.connection.RedisConnectionFactory",
            "reactor.core.publisher.*");

    private static final String SKIP_MARKER = "<!-- not compiled:";
    private static final Pattern TYPE = Pattern.compile(
            "(?m)^(public |final |abstract )*(class|record|interface|enum) ");
    private static final Pattern MEMBER = Pattern.compile("(?m)^(@|public |protected |private |static )");

    /** One block: where it is, its text, and whether it is left out. */
    record Snippet(Path file, int firstLine, String code, boolean skipped) {

        /** The block as a compilation unit in package {@code packageName}. */
        String source(String packageName) {
            StringBuilder unit = new StringBuilder("package ").append(packageName).append(";");
            IMPORTS.forEach(name -> unit.append(" import ").append(name).append(";"));
            unit.append(" import static org.assertj.core.api.Assertions.assertThat;");
            if (TYPE.matcher(code).find()) {
                return unit.append('\n').append(code).toString();
            }
            unit.append(" class Snippet extends Context {");
            if (!MEMBER.matcher(code).find()) {
                unit.append(" void run() throws Exception {");
                return unit.append('\n').append(code).append("\n}}").toString();
            }
            return unit.append('\n').append(code).append("\n}").toString();
        }

        /** The Markdown line of line {@code sourceLine} (1-based) of {@link #source}: the header is one line. */
        int markdownLine(long sourceLine) {
            return firstLine + (int) sourceLine - 2;
        }
    }

    private MarkdownSnippets() {
    }

    /** The Java blocks of {@code file}, in order. */
    static List<Snippet> of(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<Snippet> snippets = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```java")) {
                continue;
            }
            boolean skipped = i > 0 && lines.get(i - 1).strip().startsWith(SKIP_MARKER);
            int start = i + 1;
            int end = start;
            while (end < lines.size() && !lines.get(end).startsWith("```")) {
                end++;
            }
            snippets.add(new Snippet(file, start + 1, String.join("\n", lines.subList(start, end)), skipped));
            i = end;
        }
        return snippets;
    }
}
