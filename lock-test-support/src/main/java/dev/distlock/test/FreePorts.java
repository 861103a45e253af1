package dev.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/** Free TCP ports on the loopback address. A port may still be taken by someone else before the server binds it. */
final class FreePorts {

    /** Redis Cluster's bus listens on the node's port plus this offset. */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    private static final int ATTEMPTS = 100;
    private static final int LOWEST = 10_000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private FreePorts() {
    }

    /** A port that is free now. */
    static int freePort() {
        try (ServerSocket socket = bind(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + RedisProcess.HOST, e);
        }
    }

    /**
     * A port that is free now together with its cluster bus port (port + 10000), both below the kernel's ephemeral
     * range where it can tell it: there, no outgoing connection takes them while a killed node is down, so the node
     * can restart on them.
     */
    static int freePortWithClusterBus() {
        int ephemeralLow = ephemeralRangeStart();
        boolean belowEphemeral = ephemeralLow - 2 * CLUSTER_BUS_OFFSET > LOWEST;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = belowEphemeral
                    ? ThreadLocalRandom.current().nextInt(LOWEST, ephemeralLow - CLUSTER_BUS_OFFSET)
                    : freePort();
            if (port + CLUSTER_BUS_OFFSET > 65_535) {
                continue;
            }
            try (ServerSocket client = bind(port); ServerSocket bus = bind(port + CLUSTER_BUS_OFFSET)) {
                return port;
            } catch (IOException taken) {
                // try another one
            }
        }
        throw new IllegalStateException("found no free port whose cluster bus port (+" + CLUSTER_BUS_OFFSET
                + ") is free too in " + ATTEMPTS + " attempts");
    }

    /** The first port of Linux's ephemeral range, or 0 where it cannot be read. */
    private static int ephemeralRangeStart() {
        try {
            return Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static ServerSocket bind(int port) throws IOException {
        return new ServerSocket(port, 1, InetAddress.getByName(RedisProcess.HOST));
    }
}
