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
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidLockNameException(name, "a lock name must be valid UTF-16, found an unpaired "
                        + "surrogate at index " + i);
            }
        }
        return name;
    }
}
