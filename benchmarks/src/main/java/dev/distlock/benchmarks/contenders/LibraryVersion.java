package dev.distlock.benchmarks.contenders;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The versions of the libraries on the class path, for the report. */
public final class LibraryVersion {

    private LibraryVersion() {
    }

    /** The implementation version in the manifest of the jar holding {@code type}, or {@code unknown}. */
    public static String of(Class<?> type) {
        String version = type.getPackage().getImplementationVersion();
        if (version == null) {
            return "unknown";
        }
        int build = version.indexOf('/'); // Lettuce appends the commit: 7.5.2.RELEASE/5728917
        return build < 0 ? version : version.substring(0, build);
    }

    /** The version of distlock itself (this build's project version, written into a resource by Maven). */
    public static String distlock() {
        Properties properties = new Properties();
        try (InputStream in = LibraryVersion.class.getResourceAsStream("/dev/distlock/benchmarks/versions.properties")) {
            if (in == null) {
                return "unknown";
            }
            properties.load(in);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return properties.getProperty("distlock.version", "unknown");
    }
}
