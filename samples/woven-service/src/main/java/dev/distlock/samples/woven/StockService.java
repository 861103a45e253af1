package dev.distlock.samples.woven;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import org.springframework.stereotype.Service;

/**
 * Restocks and audits an item, each under a lock of its own that a busy call skips ({@code timeout = "0"},
 * {@code onTimeout = SKIP}: the call returns {@code null}). Both locked methods are reached only from inside the
 * bean, one of them private: through Spring's proxies neither would be locked; woven by AspectJ both are.
 */
@Service
public class StockService {

    /**
     * Restocks {@code sku}, running {@code work} under the restock lock.
     *
     * @return what was done, or {@code null} when another call held the lock
     */
    public String restock(String sku, Runnable work) {
        return restockLocked(sku, work); // a call of the bean to itself
    }

    /** The restock itself, locked per item: public, but called here from inside the bean. */
    @DistributedLock(name = "'restock:' + #sku", timeout = "0", onTimeout = TimeoutAction.SKIP)
    public String restockLocked(String sku, Runnable work) {
        work.run();
        return "restocked " + sku;
    }

    /**
     * Audits {@code sku}, running {@code work} under the audit lock.
     *
     * @return what was done, or {@code null} when another call held the lock
     */
    public String audit(String sku, Runnable work) {
        return auditLocked(sku, work);
    }

    @DistributedLock(name = "'audit:' + #sku", timeout = "0", onTimeout = TimeoutAction.SKIP)
    private String auditLocked(String sku, Runnable work) {
        work.run();
        return "audited " + sku;
    }
}
