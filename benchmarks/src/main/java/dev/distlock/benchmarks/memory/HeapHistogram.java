package dev.distlock.benchmarks.memory;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The live objects on the heap by class, as {@code jcmd <pid> GC.class_histogram} shows them: taking it runs a
 * full collection first, so it counts what is retained.
 *
 * @param bytesByClass shallow bytes of live instances per class name
 * @param instancesByClass live instances per class name
 */
public record HeapHistogram(Map<String, Long> bytesByClass, Map<String, Long> instancesByClass) {

    /** Collects garbage and takes the histogram of this JVM. */
    public static HeapHistogram takeLive() {
        try {
            ObjectName diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
            String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return parse(text);
        } catch (JMException ex) {
            throw new IllegalStateException("this JVM cannot take a class histogram", ex);
        }
    }

    /** Parses lines like {@code    1:     12345     678900  [B (java.base@17)}. */
    static HeapHistogram parse(String text) {
        Map<String, Long> bytes = new HashMap<>();
        Map<String, Long> instances = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 4 && fields[0].endsWith(":")) {
                instances.merge(fields[3], Long.parseLong(fields[1]), Long::sum);
                bytes.merge(fields[3], Long.parseLong(fields[2]), Long::sum);
            }
        }
        return new HeapHistogram(Map.copyOf(bytes), Map.copyOf(instances));
    }

    /** Shallow bytes of all live objects. */
    public long totalBytes() {
        return bytesByClass.values().stream().mapToLong(Long::longValue).sum();
    }
}
