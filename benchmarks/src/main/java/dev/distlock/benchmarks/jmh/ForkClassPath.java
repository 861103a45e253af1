package dev.distlock.benchmarks.jmh;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * JMH starts its forks with this JVM's {@code java.class.path}. Under {@code mvn exec:java} that is Maven's own
 * launcher, while the benchmark classes come from the plugin's class loader; this copies that loader's class path
 * into the property so the forks find them. Under a plain {@code java -cp} nothing changes.
 */
final class ForkClassPath {

    private ForkClassPath() {
    }

    /** Points {@code java.class.path} at the class path this class was loaded from, when that differs. */
    static void useLoaderOf(Class<?> type) {
        if (type.getClassLoader() instanceof URLClassLoader loader && loader != ClassLoader.getSystemClassLoader()) {
            String classPath = Arrays.stream(loader.getURLs())
                    .map(ForkClassPath::toPath)
                    .collect(Collectors.joining(File.pathSeparator));
            System.setProperty("java.class.path", classPath);
        }
    }

    private static String toPath(URL url) {
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException ex) {
            throw new IllegalStateException("not a file on the class path: " + url, ex);
        }
    }
}
