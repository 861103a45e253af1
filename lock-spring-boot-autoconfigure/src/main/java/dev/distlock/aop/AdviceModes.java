package dev.distlock.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.springframework.context.annotation.AdviceMode;

/** Which annotated methods the calls of each {@link AdviceMode} cannot lock: the one rule, for the startup check. */
final class AdviceModes {

    private AdviceModes() {
    }

    /** Why calls of {@code method} would not be locked in {@code mode}, or {@code null} when they are. */
    static String unreachable(Method method, AdviceMode mode) {
        if (mode == AdviceMode.ASPECTJ) {
            return null; // weaving reaches every execution, suspend functions included
        }
        int unproxyable = method.getModifiers() & (Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL);
        if (unproxyable != 0) {
            return "the method is " + Modifier.toString(unproxyable) + ", so calls do not pass through Spring's "
                    + "proxy and it would run without the lock; allowed: a non-private, non-static, non-final method, "
                    + "or distlock.advice-mode=aspectj with the class woven by AspectJ (dev.distlock:lock-aspectj)";
        }
        return null;
    }
}
