package dev.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on the loopback address. A port may still be taken by someone else before the server binds it. */
final class FreePorts {

    /** Redis Cluster's bus listens on the node's port plus this offset. */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    private static final int ATTEMPTS = 100;

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

    /** A port that is free now together with its cluster bus port (port + 10000). */
    static int freePortWithClusterBus() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = freePort();
            if (port + CLUSTER_BUS_OFFSET > 65_535) {
                continue;
            }
            try (ServerSocket bus = bind(port + CLUSTER_BUS_OFFSET)) {
                return port;
            } catch (IOException taken) {
                // try another one
            }
        }
        throw new IllegalStateException("found no free port whose cluster bus port (+" + CLUSTER_BUS_OFFSET
                + ") is free too in " + ATTEMPTS + " attempts");
    }

    private static ServerSocket bind(int port) throws IOException {
        return new ServerSocket(port, 1, InetAddress.getByName(RedisProcess.HOST));
    }
}
