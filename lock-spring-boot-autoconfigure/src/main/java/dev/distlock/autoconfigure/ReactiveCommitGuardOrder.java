package dev.distlock.autoconfigure;

import dev.distlock.aop.LockedReactiveTransactionsAdvisor;
import java.util.Arrays;
import java.util.List;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.transaction.interceptor.TransactionInterceptor;

/**
 * Fails the startup if a bean's proxy runs {@code @Transactional} inside distlock's commit guard for reactive
 * transactions ({@link LockedReactiveTransactionsAdvisor}), where the guard would find no transaction to guard:
 * both advisors have the lowest precedence, and only their registration order puts the guard inside.
 */
final class ReactiveCommitGuardOrder implements SmartInitializingSingleton {

    private final ListableBeanFactory beans;

    ReactiveCommitGuardOrder(ListableBeanFactory beans) {
        this.beans = beans;
    }

    @Override
    public void afterSingletonsInstantiated() {
        beans.getBeansOfType(Advised.class, false, false).forEach((name, proxy) -> check(name, proxy.getAdvisors()));
    }

    /** @throws IllegalStateException if the guard comes before (outside) the transaction advisor */
    static void check(String bean, Advisor... advisors) {
        List<Advisor> chain = Arrays.asList(advisors);
        int guard = indexOf(chain, LockedReactiveTransactionsAdvisor.class);
        int transaction = indexOf(chain, TransactionInterceptor.class);
        if (guard >= 0 && transaction > guard) {
            throw new IllegalStateException("distlock: the proxy of bean '" + bean + "' runs @Transactional inside "
                    + "distlock's check that a reactive transaction's lock is still held before it commits, which must "
                    + "run inside the transaction: give the transaction advisor a higher precedence "
                    + "(@EnableTransactionManagement(order = ...) below Ordered.LOWEST_PRECEDENCE), or turn the check "
                    + "off with distlock.transaction.rollback-on-loss=false");
        }
    }

    /** The position of the first advisor that is, or whose advice is, of {@code type}; -1 if none. */
    private static int indexOf(List<Advisor> chain, Class<?> type) {
        for (int i = 0; i < chain.size(); i++) {
            if (type.isInstance(chain.get(i)) || type.isInstance(chain.get(i).getAdvice())) {
                return i;
            }
        }
        return -1;
    }
}
