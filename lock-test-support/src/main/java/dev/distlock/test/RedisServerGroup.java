package dev.distlock.test;

import java.util.List;

/** The servers of one {@link RedisServerExtension}, closed together. */
record RedisServerGroup(List<RedisServer> servers) implements AutoCloseable {

    RedisServerGroup {
        servers = List.copyOf(servers);
    }

    /** Closes every server, also when closing one fails; the first failure is thrown with the others suppressed. */
    @Override
    public void close() {
        closeAll(servers);
    }

    /** Closes every server of the list, also when closing one fails; throws the first failure. */
    static void closeAll(List<? extends AutoCloseable> servers) {
        RuntimeException failure = null;
        for (AutoCloseable server : servers) {
            try {
                server.close();
            } catch (Exception e) {
                RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
