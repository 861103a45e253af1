package dev.distlock.core.spi;

import java.util.List;

/**
 * A store that renews several holds in one call to its backend ({@link StoreCapabilities#batchRenewal()}); the
 * engine gathers the renewals that fall due together. Without it, the engine sends them side by side.
 */
@FunctionalInterface
public interface BatchRenewal {

    /**
     * {@link LockStore#renew} of each hold, in one call, which answers or fails for all of them: what each answer
     * means is {@code renew}'s.
     *
     * @return for each renewal, in order, whether its hold was held under its token
     */
    boolean[] renewAll(List<Renewal> renewals);
}
