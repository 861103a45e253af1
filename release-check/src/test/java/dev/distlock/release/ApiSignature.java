package dev.distlock.release;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.FieldVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;

/**
 * The public API of one jar as sorted lines of text, read from its bytecode (nothing is loaded, so optional
 * dependencies need not be present): every type reachable from outside (public, and nested only in public types) with
 * its modifiers, supertypes and generic signature, and its public and protected (unless the type is final)
 * constructors, methods and fields with their descriptors and generic signatures. Two jars whose lines are equal
 * offer callers the same API. The engine's packages ({@value #INTERNAL}) are internal: public only so that its parts
 * can use each other, with no promise to callers, so they are not part of it.
 */
final class ApiSignature {

    private static final int ASM = Opcodes.ASM9;
    private static final String INTERNAL = "dev/distlock/core/engine/";

    private ApiSignature() {
    }

    /** The signature of the classes in {@code jar}. */
    static List<String> of(Path jar) throws IOException {
        Map<String, TypeInfo> types = new HashMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : zip.stream().toList()) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.endsWith("module-info.class")
                        && !name.endsWith("package-info.class") && !name.startsWith(INTERNAL)) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        TypeInfo type = new TypeInfo();
                        new ClassReader(in).accept(type, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG);
                        types.put(type.name, type);
                    }
                }
            }
        }
        TreeSet<String> lines = new TreeSet<>();
        types.values().stream().filter(type -> type.visible(types)).forEach(type -> lines.addAll(type.lines));
        return List.copyOf(lines);
    }

    private static String flags(int access) {
        List<String> words = new ArrayList<>();
        if ((access & Opcodes.ACC_PUBLIC) != 0) {
            words.add("public");
        }
        if ((access & Opcodes.ACC_PROTECTED) != 0) {
            words.add("protected");
        }
        if ((access & Opcodes.ACC_STATIC) != 0) {
            words.add("static");
        }
        if ((access & Opcodes.ACC_FINAL) != 0) {
            words.add("final");
        }
        if ((access & Opcodes.ACC_ABSTRACT) != 0) {
            words.add("abstract");
        }
        if ((access & Opcodes.ACC_INTERFACE) != 0) {
            words.add((access & Opcodes.ACC_ANNOTATION) != 0 ? "@interface" : "interface");
        } else if ((access & Opcodes.ACC_ENUM) != 0) {
            words.add("enum");
        }
        return String.join(" ", words);
    }

    /** One class file: its own access, its place among nested types, and its lines. */
    private static final class TypeInfo extends ClassVisitor {

        String name;
        int access;
        String outer;
        boolean localOrAnonymous;
        final List<String> lines = new ArrayList<>();

        TypeInfo() {
            super(ASM);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.name = name;
            this.access = access;
            lines.add(name + " type " + flags(access & ~Opcodes.ACC_SUPER) + " extends " + superName
                    + (interfaces.length == 0 ? "" : " implements " + String.join(", ", new TreeSet<>(List.of(
                            interfaces)))) + (signature == null ? "" : " " + signature));
        }

        @Override
        public void visitInnerClass(String inner, String outerName, String innerName, int innerAccess) {
            if (inner.equals(name)) {
                access = innerAccess | (access & Opcodes.ACC_INTERFACE);
                outer = outerName;
                localOrAnonymous = outerName == null || innerName == null;
                lines.set(0, lines.get(0).replaceFirst(" type [^(]*? extends ", " type "
                        + flags(access & ~Opcodes.ACC_SUPER) + " extends "));
            }
        }

        @Override
        public void visitOuterClass(String owner, String method, String descriptor) {
            localOrAnonymous = true;
        }

        @Override
        public MethodVisitor visitMethod(int memberAccess, String member, String descriptor, String signature,
                String[] exceptions) {
            if (exposed(memberAccess) && (memberAccess & Opcodes.ACC_BRIDGE) == 0) {
                lines.add(name + " method " + flags(memberAccess) + " " + member + descriptor
                        + (signature == null ? "" : " " + signature)
                        + (exceptions == null ? "" : " throws " + String.join(", ", new TreeSet<>(List.of(
                                exceptions)))));
            }
            return null;
        }

        @Override
        public FieldVisitor visitField(int memberAccess, String member, String descriptor, String signature,
                Object value) {
            if (exposed(memberAccess)) {
                lines.add(name + " field " + flags(memberAccess) + " " + member + " " + descriptor
                        + (signature == null ? "" : " " + signature) + (value == null ? "" : " = " + value));
            }
            return null;
        }

        private boolean exposed(int memberAccess) {
            if ((memberAccess & Opcodes.ACC_SYNTHETIC) != 0) {
                return false;
            }
            return (memberAccess & Opcodes.ACC_PUBLIC) != 0
                    || (memberAccess & Opcodes.ACC_PROTECTED) != 0 && (access & Opcodes.ACC_FINAL) == 0;
        }

        boolean visible(Map<String, TypeInfo> types) {
            if ((access & Opcodes.ACC_PUBLIC) == 0 || (access & Opcodes.ACC_SYNTHETIC) != 0 || localOrAnonymous) {
                return false;
            }
            TypeInfo enclosing = outer == null ? null : types.get(outer);
            return outer == null || enclosing != null && enclosing.visible(types);
        }
    }
}
