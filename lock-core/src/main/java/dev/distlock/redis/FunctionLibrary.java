package dev.distlock.redis;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Lock scripts as one Redis function library ({@code FUNCTION LOAD}, then {@code FCALL}; Redis 7 and Valkey). Its
 * name, and so each function's, carries a hash of its code: libraries of different distlock versions live side by
 * side on one server, and a server holding this name holds this code.
 */
final class FunctionLibrary {

    private final String name;
    private final String code;
    /** The name {@code FCALL} calls each script of the library by, made once rather than per call. */
    private final Map<LockScripts.Script, String> functions;

    private FunctionLibrary(String name, String code, Set<LockScripts.Script> scripts) {
        this.name = name;
        this.code = code;
        this.functions = scripts.stream().collect(Collectors.toUnmodifiableMap(script -> script,
                script -> functionName(name, script)));
    }

    /**
     * The library of {@code common} (the shared Lua functions) and the scripts' functions, registered with the flags
     * their kind needs.
     *
     * @param writes scripts that write, refused while Redis is out of memory
     * @param oomSafe scripts that write and must still run while Redis is out of memory ({@code allow-oom})
     * @param reads scripts that only read ({@code no-writes})
     */
    static FunctionLibrary of(String common, List<LockScripts.Script> writes, List<LockScripts.Script> oomSafe,
            List<LockScripts.Script> reads) {
        StringBuilder body = new StringBuilder(common);
        // the hash covers what each function is registered as, too: a name always stands for one library
        StringBuilder kinds = new StringBuilder();
        for (List<LockScripts.Script> kind : List.of(writes, oomSafe, reads)) {
            kind.forEach(script -> body.append(script.body()).append('\n'));
            kinds.append(kind.stream().map(LockScripts.Script::function).toList()).append(';');
        }
        String name = "distlock_" + RedisScript.of(body + kinds.toString()).getSha1().substring(0, 12);
        StringBuilder code = new StringBuilder("#!lua name=").append(name).append('\n').append(body);
        register(code, name, writes, "");
        register(code, name, oomSafe, ", flags = { 'allow-oom' }");
        register(code, name, reads, ", flags = { 'no-writes' }");
        return new FunctionLibrary(name, code.toString(),
                Set.copyOf(Stream.of(writes, oomSafe, reads).flatMap(List::stream).toList()));
    }

    private static void register(StringBuilder code, String library, List<LockScripts.Script> scripts, String flags) {
        for (LockScripts.Script script : scripts) {
            code.append("redis.register_function{ function_name = '").append(functionName(library, script))
                    .append("', callback = ").append(script.function()).append(flags).append(" }\n");
        }
    }

    private static String functionName(String library, LockScripts.Script script) {
        return library + '_' + script.function();
    }

    /** The library's name: {@code distlock_} and 12 hex digits of its code's hash. */
    String name() {
        return name;
    }

    /** The code {@code FUNCTION LOAD} takes. */
    String code() {
        return code;
    }

    /** The name {@code FCALL} calls {@code script} by; {@code null} for a script the library does not {@link #holds}. */
    String function(LockScripts.Script script) {
        return functions.get(script);
    }

    /** Whether the library holds {@code script}. */
    boolean holds(LockScripts.Script script) {
        return functions.containsKey(script);
    }
}
