package dev.distlock.test;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the text replies of {@code INFO} and {@code CLUSTER INFO}: {@code field:value} lines. */
public final class RedisInfo {

    private RedisInfo() {
    }

    /**
     * The fields of an {@code INFO} reply, in order; section headers and blank lines are left out.
     *
     * @param reply the reply, as returned by {@link RespClient#command}
     * @return field to value
     */
    public static Map<String, String> parse(Object reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        String.valueOf(reply).lines()
                .filter(line -> !line.startsWith("#") && line.indexOf(':') > 0)
                .forEach(line -> fields.put(line.substring(0, line.indexOf(':')), line.substring(line.indexOf(':') + 1)
                        .trim()));
        return fields;
    }

    /**
     * One field of an {@code INFO} reply, e.g. {@code process_id}.
     *
     * @param reply the reply, as returned by {@link RespClient#command}
     * @param field the field's name
     * @return its value
     * @throws IllegalStateException if the reply has no such field
     */
    public static String field(Object reply, String field) {
        String value = parse(reply).get(field);
        if (value == null) {
            throw new IllegalStateException("INFO has no " + field);
        }
        return value;
    }
}
