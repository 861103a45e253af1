package dev.distlock.core.support;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owner tokens, unique per acquisition: a random 96-bit prefix per registry (so two processes never share
 * one) followed by a sequence number. Cheaper than a random UUID per acquisition and just as unique.
 */
final class HoldTokens {

    private final String prefix;
    private final AtomicLong sequence = new AtomicLong();

    HoldTokens() {
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        this.prefix = Base64.getUrlEncoder().withoutPadding().encodeToString(random) + ':';
    }

    String next() {
        return prefix + sequence.incrementAndGet();
    }
}
