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
        assertThatThrownBy(() -> RedisBinaryLocator.find(MISSING, null, System.getenv("PATH"), List.of(Path.of("/usr/bin"))))
                .hasMessageContaining("-Ddistlock.redis-server=" + MISSING)
                .satisfies(RedisServerDiscoveryIT::hasInstallInstructions);
    }

    @Test
    void missingBinaryNamedByTheEnvironmentFailsWithInstallInstructions() {
        assertThatThrownBy(() -> RedisBinaryLocator.find(null, MISSING, System.getenv("PATH"), List.of(Path.of("/usr/bin"))))
                .hasMessageContaining("REDIS_SERVER_BIN=" + MISSING)
                .satisfies(RedisServerDiscoveryIT::hasInstallInstructions);
    }

    @Test
    void noBinaryAnywhereFailsWithInstallInstructions(@TempDir Path empty) {
        assertThatThrownBy(() -> RedisBinaryLocator.find(null, "", empty.toString(), List.of(empty)))
                .satisfies(RedisServerDiscoveryIT::hasInstallInstructions);
    }

    @Test
    void discoveryOrderIsPropertyThenEnvironmentThenPath(@TempDir Path tmp) throws IOException {
        Path first = executable(tmp.resolve("a"));
        Path second = executable(tmp.resolve("b"));
        Path none = Files.createDirectories(tmp.resolve("none"));
        String path = none + File.pathSeparator + first.getParent();

        assertThat(RedisBinaryLocator.find(second.toString(), first.toString(), path, List.of())).isEqualTo(second);
        assertThat(RedisBinaryLocator.find(null, second.toString(), path, List.of())).isEqualTo(second);
        assertThat(RedisBinaryLocator.find(null, null, path, List.of())).isEqualTo(first);
        assertThat(RedisBinaryLocator.find(null, null, none.toString(), List.of(second.getParent()))).isEqualTo(second);
    }

    @Test
    void aNamedBinaryIsFoundByPropertyThenEnvironmentThenServersDir(@TempDir Path tmp) throws IOException {
        Path fetched = executable(tmp.resolve("servers").resolve("redis-6.0"), "server");
        Path byEnv = executable(tmp.resolve("env"));
        Path byProperty = executable(tmp.resolve("property"));
        Path servers = tmp.resolve("servers");

        assertThat(RedisBinaryLocator.findNamed("redis-6.0", byProperty.toString(), byEnv.toString(), servers))
                .isEqualTo(byProperty);
        assertThat(RedisBinaryLocator.findNamed("redis-6.0", null, byEnv.toString(), servers)).isEqualTo(byEnv);
        assertThat(RedisBinaryLocator.findNamed("redis-6.0", "", null, servers)).isEqualTo(fetched);
        assertThat(RedisBinaryLocator.envName("redis-6.0")).isEqualTo("REDIS_SERVER_BIN_REDIS_6_0");
    }

    @Test
    void aMissingNamedBinaryFailsNamingTheFetchScript(@TempDir Path empty) {
        assertThatThrownBy(() -> RedisBinaryLocator.findNamed("valkey-8.0", null, null, empty))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(empty.resolve("valkey-8.0").resolve("server").toString())
                .hasMessageContaining(".ci/fetch-redis-servers valkey-8.0")
                .hasMessageContaining("-Ddistlock.redis-server.valkey-8.0=")
                .hasMessageContaining("REDIS_SERVER_BIN_VALKEY_8_0")
                .hasMessageContaining("never skip");
        assertThatThrownBy(() -> RedisBinaryLocator.findNamed("valkey-8.0", MISSING, null, empty))
                .hasMessageContaining("-Ddistlock.redis-server.valkey-8.0=" + MISSING)
                .hasMessageContaining(".ci/fetch-redis-servers valkey-8.0");
    }

    @Test
    void theServersDirIsPropertyThenEnvironmentThenTheUserCache() {
        assertThat(RedisBinaryLocator.serversDir("/p", "/e", "/x", "/home/u")).isEqualTo(Path.of("/p"));
        assertThat(RedisBinaryLocator.serversDir(null, "/e", "/x", "/home/u")).isEqualTo(Path.of("/e"));
        assertThat(RedisBinaryLocator.serversDir(null, null, "/x", "/home/u")).isEqualTo(Path.of("/x/distlock/servers"));
        assertThat(RedisBinaryLocator.serversDir(null, "", null, "/home/u"))
                .isEqualTo(Path.of("/home/u/.cache/distlock/servers"));
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
        return executable(dir, "redis-server");
    }

    private static Path executable(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
