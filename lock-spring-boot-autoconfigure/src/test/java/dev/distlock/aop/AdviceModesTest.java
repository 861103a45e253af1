package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.util.ReflectionUtils;

/** Which annotated methods each advice mode can lock: the startup check refuses the others. */
class AdviceModesTest {

    @Test
    void proxiesRefusePrivateStaticAndFinalMethodsPointingToTheAspectJMode() {
        LockOperationSource proxies = new LockOperationSource(LockTestConfiguration.DEFAULTS, null, AdviceMode.PROXY);
        for (String name : new String[] {"privately", "statically", "finalMethod"}) {
            assertThat(proxies.find(method(name), Jobs.class).problems()).singleElement().asString()
                    .contains("calls do not pass through Spring's proxy", "distlock.advice-mode=aspectj");
        }
        assertThat(proxies.find(method("packagePrivately"), Jobs.class).problems()).isEmpty();
    }

    @Test
    void weavingLocksEveryOneOfThem() {
        LockOperationSource woven = new LockOperationSource(LockTestConfiguration.DEFAULTS, null, AdviceMode.ASPECTJ);
        for (String name : new String[] {"privately", "statically", "finalMethod", "packagePrivately"}) {
            assertThat(woven.find(method(name), Jobs.class).problems()).as(name).isEmpty();
        }
    }

    private static Method method(String name) {
        return ReflectionUtils.findMethod(Jobs.class, name);
    }

    static class Jobs {

        @DistributedLock(name = "a")
        private void privately() {
        }

        @DistributedLock(name = "b")
        static void statically() {
        }

        @DistributedLock(name = "c")
        public final void finalMethod() {
        }

        @DistributedLock(name = "d")
        void packagePrivately() {
        }
    }
}
