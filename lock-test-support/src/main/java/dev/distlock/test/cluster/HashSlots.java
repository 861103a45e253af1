package dev.distlock.test.cluster;

import java.nio.charset.StandardCharsets;

/** Redis Cluster's hash slot of a key (CRC16-XModem of the key or its hash tag, modulo 16384), computed locally. */
public final class HashSlots {

    private HashSlots() {
    }

    /**
     * The slot of a key, as {@code CLUSTER KEYSLOT} computes it: only the part between the first {@code {}} and the
     * next {@code }} counts when that part is not empty.
     *
     * @param key the key (UTF-8)
     * @return a slot in 0..16383
     */
    public static int of(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int start = 0;
        int end = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) {
                start = open + 1;
                end = close;
            }
        }
        return crc16(bytes, start, end) & (RedisCluster.SLOTS - 1);
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int crc16(byte[] bytes, int start, int end) {
        int crc = 0;
        for (int i = start; i < end; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return crc & 0xffff;
    }
}
