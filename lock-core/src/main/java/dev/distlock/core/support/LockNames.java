package dev.distlock.core.support;

import dev.distlock.core.InvalidLockNameException;

/** The rules every lock name follows, whatever the backend. */
public final class LockNames {

    /** The longest name accepted, in UTF-16 chars. Longer names are rejected, not hashed. */
    public static final int MAX_LENGTH = 1024;

    private LockNames() {
    }

    /**
     * Checks that {@code name} can name a lock: 1 to {@value #MAX_LENGTH} chars of valid UTF-16 (any
     * character is fine, including spaces, newlines and glob or brace characters).
     *
     * @return the name
     * @throws InvalidLockNameException otherwise
     */
    public static String validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidLockNameException(name, "a lock name must not be null or empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new InvalidLockNameException(name, "a lock name may have at most " + MAX_LENGTH
                    + " characters, this one has " + name.length());
        }
        int unpaired = unpairedSurrogate(name);
        if (unpaired >= 0) {
            throw new InvalidLockNameException(name, "a lock name must be valid UTF-16, found an unpaired "
                    + "surrogate at index " + unpaired);
        }
        return name;
    }

    /**
     * The index of the first surrogate char of {@code text} that is not half of a pair, or -1 if it is valid
     * UTF-16. Such a char has no UTF-8 encoding: Redis would get a {@code ?} in its place, so texts that differ
     * only there would share a key.
     */
    public static int unpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
