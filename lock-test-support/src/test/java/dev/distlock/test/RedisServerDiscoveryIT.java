package dev.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the redis-server binary, and failing with installation instructions when there is none. */
class RedisServerDiscoveryIT {

    private static final String MISSING = "/nonexistent/redis-server";

    @Test
    void missingBinaryNamedByThePropertyFailsWithInstallInstructions() {
        assertThatThrownBy(() -> RedisBinary.find(MISSING, null, System.getenv("PATH"), List.of(Path.of("/usr/bin"))))
                .hasMessageContaining("-Ddistlock.redis-server=" + MISSING)
                .satisfies(RedisServerDiscoveryIT::hasInstallInstructions);
    }

    @Test
    void missingBinaryNamedByTheEnvironmentFailsWithInstallInstructions() {
        assertThatThrownBy(() -> RedisBinary.find(null, MISSING, System.getenv("PATH"), List.of(Path.of("/usr/bin"))))
                .hasMessageContaining("REDIS_SERVER_BIN=" + MISSING)
                .satisfies(RedisServerDiscoveryIT::hasInstallInstructions);
    }

    @Test
    void noBinaryAnywhereFailsWithInstallInstructions(@TempDir Path empty) {
        assertThatThrownBy(() -> RedisBinary.find(null, "", empty.toString(), List.of(empty)))
                .satisfies(RedisServerDiscoveryIT::hasInstallInstructions);
    }

    @Test
    void discoveryOrderIsPropertyThenEnvironmentThenPath(@TempDir Path tmp) throws IOException {
        Path first = executable(tmp.resolve("a"));
        Path second = executable(tmp.resolve("b"));
        Path none = Files.createDirectories(tmp.resolve("none"));
        String path = none + File.pathSeparator + first.getParent();

        assertThat(RedisBinary.find(second.toString(), first.toString(), path, List.of())).isEqualTo(second);
        assertThat(RedisBinary.find(null, second.toString(), path, List.of())).isEqualTo(second);
        assertThat(RedisBinary.find(null, null, path, List.of())).isEqualTo(first);
        assertThat(RedisBinary.find(null, null, none.toString(), List.of(second.getParent()))).isEqualTo(second);
    }

    private static void hasInstallInstructions(Throwable e) {
        assertThat(e).isInstanceOf(IllegalStateException.class);
        assertThat(e.getMessage())
                .contains("redis-server")
                .contains("7.x")
                .contains("never skip")
                .contains("sudo apt-get install redis-server")
                .contains("brew install redis")
                .contains("-Ddistlock.redis-server=/path/to/redis-server")
                .contains("REDIS_SERVER_BIN");
    }

    private static Path executable(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("redis-server");
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
