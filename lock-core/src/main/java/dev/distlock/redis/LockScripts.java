package dev.distlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts, read once from the {@code .lua} resources beside this class, each preceded by the
 * functions they share ({@code common.lua}). Spring Data runs them by
 * SHA (EVALSHA) and sends the text only when Redis does not know it yet. The text is read into memory
 * rather than kept as a resource so that no call checks the resource for modification.
 */
final class LockScripts {

    @SuppressWarnings("rawtypes")
    static final RedisScript<List> ACQUIRE = load("acquire.lua", List.class);
    @SuppressWarnings("rawtypes")
    static final RedisScript<List> LEAVE = load("leave.lua", List.class);
    static final RedisScript<Long> RELEASE = load("release.lua", Long.class);
    static final RedisScript<Long> EXTEND = load("extend.lua", Long.class);
    static final RedisScript<Long> REMAINING = load("remaining.lua", Long.class);

    private LockScripts() {
    }

    /** The script in {@code file}, preceded by the functions of {@code common.lua}. */
    private static <T> RedisScript<T> load(String file, Class<T> resultType) {
        return RedisScript.of(read("common.lua") + read(file), resultType);
    }

    private static String read(String file) {
        try (InputStream in = LockScripts.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + file + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not read Lua script " + file, ex);
        }
    }
}
