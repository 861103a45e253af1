package dev.distlock.samples.inventory.demo;

import dev.distlock.samples.inventory.SkuBalance;
import dev.distlock.samples.inventory.StockLedger;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.tools.Server;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The database the instances share: an in-memory H2 database in the launcher's JVM, served to them over
 * TCP on a free loopback port, with the service's own {@code schema.sql}. It stands in for the database a
 * service's instances would share in production.
 */
final class DemoDatabase implements AutoCloseable {

    private final Server server;
    private final String name;
    private final JdbcTemplate jdbc;
    private final StockLedger ledger;

    private DemoDatabase(Server server, String name, JdbcTemplate jdbc) {
        this.server = server;
        this.name = name;
        this.jdbc = jdbc;
        this.ledger = new StockLedger(jdbc);
    }

    /** Creates the database and starts serving it. */
    static DemoDatabase start() throws SQLException {
        String name = "inventory-demo-" + UUID.randomUUID();
        JdbcDataSource dataSource = new JdbcDataSource();
        // kept until close(), even while no connection is open
        dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        new ResourceDatabasePopulator(new ClassPathResource("schema.sql")).execute(dataSource);
        // without -tcpAllowOthers H2 accepts connections from this machine only
        Server server = Server.createTcpServer("-tcpPort", "0").start();
        return new DemoDatabase(server, name, new JdbcTemplate(dataSource));
    }

    /** The URL the instances connect with. */
    String url() {
        // a writer that finds a row locked by another transaction waits for it (long enough for the unlocked round)
        return "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:" + name + ";LOCK_TIMEOUT=10000";
    }

    /** Empties the database and opens each SKU with {@code units} on hand. */
    void seed(List<String> skus, long units) {
        jdbc.update("delete from movement");
        jdbc.update("delete from stock");
        skus.forEach(sku -> ledger.open(sku, units));
    }

    /** Every SKU's stock row next to its movements. */
    List<SkuBalance> balances() {
        return ledger.balances();
    }

    @Override
    public void close() {
        try {
            jdbc.execute("shutdown");
        } finally {
            server.stop();
        }
    }
}
