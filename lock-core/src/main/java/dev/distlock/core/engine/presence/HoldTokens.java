package dev.distlock.core.engine.presence;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owner tokens, unique per acquisition: a random 96-bit prefix per registry (so two processes never share
 * one) followed by a sequence number. Cheaper than a random UUID per acquisition and just as unique.
 */
public final class HoldTokens {

    private final String prefix;
    private final AtomicLong sequence = new AtomicLong();

    public HoldTokens() {
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        this.prefix = Base64.getUrlEncoder().withoutPadding().encodeToString(random) + ':';
    }

    public String next() {
        return prefix + sequence.incrementAndGet();
    }

    /** The registry's instance id: the random prefix of its tokens. */
    public String instance() {
        return prefix.substring(0, prefix.length() - 1);
    }

    /** The instance id of the registry that issued {@code token}. */
    static String instanceOf(String token) {
        int colon = token.lastIndexOf(':');
        return colon > 0 ? token.substring(0, colon) : token;
    }
}
