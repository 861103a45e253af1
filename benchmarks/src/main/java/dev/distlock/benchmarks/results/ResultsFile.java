package dev.distlock.benchmarks.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Writes and reads a run's results file: {@link RunResults} as indented JSON. */
public final class ResultsFile {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            // a file written by a newer harness may carry figures this one does not chart
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private ResultsFile() {
    }

    /** Writes {@code results} to {@code file}, creating its directory. */
    public static void write(RunResults results, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Files.writeString(file, JSON.writeValueAsString(results) + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Reads a results file.
     *
     * @throws IOException if it cannot be read, is not JSON or is of another format
     */
    public static RunResults read(Path file) throws IOException {
        RunResults results;
        try {
            results = JSON.readValue(Files.readString(file, StandardCharsets.UTF_8), RunResults.class);
        } catch (JacksonException ex) {
            throw new IOException(file + " is not a results file: " + ex.getOriginalMessage(), ex);
        }
        if (results.format() != RunResults.FORMAT) {
            throw new IOException(file + " has format " + results.format() + "; this harness reads format "
                    + RunResults.FORMAT);
        }
        return results;
    }
}
