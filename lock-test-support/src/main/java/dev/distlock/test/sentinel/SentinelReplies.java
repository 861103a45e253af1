package dev.distlock.test.sentinel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads Sentinel's replies: flat {@code [field, value, ...]} arrays. */
final class SentinelReplies {

    private SentinelReplies() {
    }

    /** One {@code [field, value, ...]} array (e.g. {@code SENTINEL MASTER}) as a map. */
    static Map<String, String> fields(Object reply) {
        List<?> flat = (List<?>) reply;
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
        }
        return fields;
    }

    /** An array of such arrays (e.g. {@code SENTINEL REPLICAS}) as maps. */
    static List<Map<String, String>> records(Object reply) {
        List<Map<String, String>> records = new ArrayList<>();
        for (Object record : (List<?>) reply) {
            records.add(fields(record));
        }
        return records;
    }
}
