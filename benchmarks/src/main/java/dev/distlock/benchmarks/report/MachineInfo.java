package dev.distlock.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The machine a run was made on: absolute numbers mean little elsewhere.
 *
 * @param cores processors available to the JVM
 * @param cpu the CPU model, or {@code unknown}
 * @param memoryGib physical memory, 0 if unknown
 * @param os operating system and kernel ({@code uname -r})
 * @param java the JVM and its version
 * @param redis the redis-server version
 * @param loadAtStart the load averages over 1, 5 and 15 minutes when the run started: other work on a shared
 *        machine moves the absolute numbers
 */
public record MachineInfo(int cores, String cpu, double memoryGib, String os, String java, String redis,
        String loadAtStart) {

    /** This machine, with the version the benchmark's redis-server reported. */
    public static MachineInfo collect(String redisVersion) {
        return new MachineInfo(Runtime.getRuntime().availableProcessors(), readCpuModel(), readMemoryGib(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                "redis-server " + redisVersion, loadAverage());
    }

    /** The first three fields of {@code /proc/loadavg}, or {@code unknown}. */
    public static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException ex) {
            return "unknown";
        }
    }

    private static String readCpuModel() {
        return procLine("/proc/cpuinfo", "model name").map(line -> line.substring(line.indexOf(':') + 1).trim())
                .orElse("unknown");
    }

    private static double readMemoryGib() {
        return procLine("/proc/meminfo", "MemTotal:")
                .map(line -> Long.parseLong(line.replaceAll("\\D", "")) / (1024.0 * 1024.0))
                .orElse(0.0);
    }

    private static Optional<String> procLine(String file, String prefix) {
        try (Stream<String> lines = Files.lines(Path.of(file))) {
            return lines.filter(line -> line.startsWith(prefix)).findFirst();
        } catch (IOException | RuntimeException ex) {
            return Optional.empty(); // not Linux: the report says unknown
        }
    }
}
