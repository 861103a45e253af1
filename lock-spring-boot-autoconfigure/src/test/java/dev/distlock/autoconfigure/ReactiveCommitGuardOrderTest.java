package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.aop.LockedReactiveTransactionsAdvisor;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.transaction.interceptor.TransactionInterceptor;

class ReactiveCommitGuardOrderTest {

    private final Advisor transaction = new DefaultPointcutAdvisor(new TransactionInterceptor());
    private final Advisor guard = new LockedReactiveTransactionsAdvisor(() -> null);

    @Test
    void theGuardInsideTheTransactionPasses() {
        assertThatCode(() -> ReactiveCommitGuardOrder.check("orders", transaction, guard)).doesNotThrowAnyException();
        assertThatCode(() -> ReactiveCommitGuardOrder.check("orders", guard)).doesNotThrowAnyException();
        assertThatCode(() -> ReactiveCommitGuardOrder.check("orders", transaction)).doesNotThrowAnyException();
    }

    @Test
    void theGuardOutsideTheTransactionFailsNamingTheBeanAndTheWayOut() {
        assertThatThrownBy(() -> ReactiveCommitGuardOrder.check("orders", guard, transaction))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("bean 'orders'")
                .hasMessageContaining("@EnableTransactionManagement(order")
                .hasMessageContaining("distlock.transaction.rollback-on-loss=false");
    }
}
