package dev.distlock.docs;

import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.core.LockRegistry;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import dev.distlock.election.spring.LeaderCandidate;
import org.slf4j.Logger;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import reactor.core.publisher.Mono;

/**
 * The application types the documentation's Java examples use ({@code StockLedger}, {@code Reservation}, ...), and
 * the variables a fragment of an example refers to ({@link Context}), so that {@link DocumentationSnippetsTest} can
 * compile every example as written.
 */
public final class Examples {

    private Examples() {
    }

    /** The stock an example locks. */
    public interface StockLedger {

        Reservation take(String sku, int quantity, long fencingToken);

        void add(String sku, int quantity, long fencingToken);

        void audit();
    }

    /** The same, reactive. */
    public interface ReactiveLedger {

        Mono<Reservation> take(String sku, int quantity, long fencingToken);
    }

    /** A reservation of stock. */
    public record Reservation(String sku, int quantity, long fencingToken) {
    }

    /** An invoice. */
    public record Invoice(String orderId) {
    }

    /** Billing, blocking and not. */
    public interface Billing {

        Invoice invoice(String orderId);

        CompletableFuture<Invoice> invoiceAsync(String orderId, long fencingToken);
    }

    /** Accounts money moves between. */
    public interface Accounts {

        void move(String from, String to, long amount, Map<String, Long> fencingTokens);

        void move(String from, String to, long amount);
    }

    /** A scheduled report. */
    public interface Reports {

        void writeStockReport();
    }

    /** An order. */
    public record Order(String id) {
    }

    /** Where orders are saved, without blocking. */
    public interface OrderStore {

        CompletionStage<Order> save(Order order, long fencingToken);
    }

    /** The service the testing examples call. */
    public static class InventoryService {

        public Reservation reserve(String sku, int quantity) {
            return new Reservation(sku, quantity, 1);
        }
    }

    /** Work a leader starts and stops (an audit, a poller), given its term's epoch. */
    public interface LeaderWork {

        void start(long epoch);

        void stop();

        void run(long epoch);
    }

    /** A slow supplier that a semaphore limits the calls to. */
    public interface SupplierClient {

        Quote quote(String sku);

        CompletionStage<Quote> quoteAsync(String sku);
    }

    public record Quote(String sku, long cents) {
    }

    /** What a call throws when the supplier's permits stayed taken. */
    public static class SupplierBusyException extends RuntimeException {

        public SupplierBusyException(String sku) {
            super("the supplier is busy: " + sku);
        }
    }

    /** Prices read by many callers at once and changed by one, each change with the writer's fencing token. */
    public interface Catalogue {

        long price(String sku);

        void setPrice(String sku, long cents, long fencingToken);
    }

    /** A job run under a lock, given its fencing token. */
    public interface Job {

        void run(long fencingToken);
    }

    /** The variables an example fragment uses without declaring them: a fragment runs in a subclass. */
    public abstract static class Context {

        protected LockRegistry lockRegistry;
        protected RedisConnectionFactory redisConnectionFactory;
        protected FencedLock lock;
        protected StockLedger ledger;
        protected ReactiveLedger reactiveLedger;
        protected Billing billing;
        protected Accounts accounts;
        protected Reports reports;
        protected OrderStore store;
        protected Order order;
        protected String sku;
        protected int quantity;
        protected String orderId;
        protected String from;
        protected String to;
        protected long amount;
        protected LeaderWork auditor;
        protected LeaderWork poller;
        protected LeaderCandidate auditLeader;
        protected SupplierClient supplier;
        protected LeasedSemaphore calls;
        protected Catalogue catalogue;
        protected FencedReadWriteLock prices;
        protected long cents;
        protected ExecutorService executor;
        protected Job job;
        protected Logger log;
    }
}
