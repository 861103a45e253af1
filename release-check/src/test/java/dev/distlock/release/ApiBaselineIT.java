package dev.distlock.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The public API of every published jar against its recorded baseline ({@code release-check/api/<artifact>.api}):
 * a change of the API, compatible or not, fails the build until the baseline records it, so that no change of what
 * users compile against goes unnoticed, and every incompatible one is a decision seen in review. To record an
 * intended change: {@code ./mvnw verify -pl release-check -am -Ddistlock.api.update=true}, then commit the files.
 */
class ApiBaselineIT {

    private static final Path BASELINES = Path.of(System.getProperty("distlock.api.baselines"));
    private static final boolean UPDATE = Boolean.getBoolean("distlock.api.update");

    @TestFactory
    List<DynamicTest> everyPublishedApiMatchesItsBaseline() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String artifact : StagedRelease.publishedArtifacts()) {
            tests.add(DynamicTest.dynamicTest(artifact, () -> check(artifact)));
        }
        return tests;
    }

    private static void check(String artifact) throws Exception {
        Path jar = StagedRelease.staged(artifact).file(null, "jar");
        List<String> api = ApiSignature.of(jar);
        Path baseline = BASELINES.resolve(artifact + ".api");
        if (UPDATE) {
            Files.createDirectories(BASELINES);
            Files.write(baseline, api);
            System.out.println("[api] recorded " + api.size() + " lines of " + artifact + " in " + baseline);
            return;
        }
        assertThat(baseline).as("the API baseline of %s: record it with -Ddistlock.api.update=true", artifact)
                .isRegularFile();
        Set<String> recorded = new LinkedHashSet<>(Files.readAllLines(baseline));
        Set<String> removed = new LinkedHashSet<>(recorded);
        api.forEach(removed::remove);
        Set<String> added = new LinkedHashSet<>(api);
        added.removeAll(recorded);
        assertThat(removed).as("API of %s removed or changed since its baseline (incompatible for callers; if "
                + "intended, record it with -Ddistlock.api.update=true)", artifact).isEmpty();
        assertThat(added).as("API of %s added since its baseline (record it with -Ddistlock.api.update=true)",
                artifact).isEmpty();
    }
}
