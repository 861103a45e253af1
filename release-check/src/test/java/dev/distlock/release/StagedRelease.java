package dev.distlock.release;

import java.nio.file.Path;
import java.util.List;

/** Where the release rehearsal staged the artifacts, and which artifacts are published. */
final class StagedRelease {

    static final String GROUP = "dev.distlock";
    static final String PARENT = "distlock-parent";
    private static final Path STAGING = Path.of(System.getProperty("distlock.staging.repository"));
    private static final Path ROOT_POM = Path.of(System.getProperty("distlock.root.pom"));
    private static final String VERSION = System.getProperty("distlock.version");

    private StagedRelease() {
    }

    /** The artifacts users depend on: the {@value #GROUP} entries of the root POM's dependency management. */
    static List<String> publishedArtifacts() throws Exception {
        return Pom.read(ROOT_POM).managedArtifacts(GROUP);
    }

    /** {@code artifact}'s staged version folder. */
    static StagedArtifact staged(String artifact) throws Exception {
        return StagedArtifact.of(STAGING.resolve(GROUP.replace('.', '/')).resolve(artifact).resolve(VERSION),
                artifact, VERSION);
    }
}
