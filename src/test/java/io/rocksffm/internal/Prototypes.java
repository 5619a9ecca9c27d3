package io.rocksffm.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * C function prototypes reduced to what decides how a function is called: return and parameter
 * types (with {@code const}), without parameter names, {@code extern}, export macros or spacing.
 * Enough for {@code rocksdb/c.h}, which declares plain functions and function-pointer parameters.
 */
final class Prototypes {
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|[*(),\\[\\]]|\\.\\.\\.");
    private static final Pattern NAME = Pattern.compile("\\b(rocksdb_\\w+)\\s*\\(");
    /** Built-in type words: an identifier ending a parameter is its name unless it is one of these. */
    private static final Set<String> TYPE_WORDS = Set.of("void", "char", "short", "int", "long", "float", "double",
            "signed", "unsigned", "_Bool", "bool");
    private static final Set<String> DROPPED = Set.of("extern", "ROCKSDB_LIBRARY_API");

    private Prototypes() {}

    /** The function name declared by {@code decl}. */
    static String name(String decl) {
        Matcher m = NAME.matcher(decl);
        if (!m.find()) {
            throw new IllegalArgumentException("no rocksdb_ function in: " + decl);
        }
        return m.group(1);
    }

    /**
     * {@code decl} as {@code "ret name ( type , type )"} with names and spacing normalised,
     * {@code (void)} as {@code ()} and {@code bool} as {@code _Bool}.
     */
    static String normalize(String decl) {
        List<String> t = new ArrayList<>();
        Matcher m = TOKEN.matcher(decl);
        while (m.find()) {
            if (!DROPPED.contains(m.group())) {
                t.add(m.group().equals("bool") ? "_Bool" : m.group());
            }
        }
        String function = name(decl);
        int at = t.indexOf(function);
        List<String> out = new ArrayList<>(t.subList(0, at + 1));
        for (int i = at + 1; i < t.size(); i++) {
            String tok = t.get(i);
            boolean ident = Character.isJavaIdentifierStart(tok.charAt(0));
            String prev = t.get(i - 1);
            String next = i + 1 < t.size() ? t.get(i + 1) : ")";
            boolean afterType = Character.isJavaIdentifierStart(prev.charAt(0)) || prev.equals("*");
            boolean endsParam = next.equals(",") || next.equals(")") || next.equals("[");
            if (ident && afterType && endsParam && !TYPE_WORDS.contains(tok) && !tok.equals("const")) {
                continue; // a parameter's name
            }
            out.add(tok);
        }
        return String.join(" ", out).replace(" ( void )", " ( )");
    }

    /** {@code prototype} (normalised) without {@code const}: what decides the calling convention. */
    static String withoutConst(String prototype) {
        return (" " + prototype + " ").replace(" const ", " ").strip();
    }

    /** Every function a C header declares: name -> normalised prototype. */
    static Map<String, String> parseHeader(String text) {
        String code = text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ")
                .replaceAll("(?m)^\\s*#.*$", " ");
        Map<String, String> out = new TreeMap<>();
        for (String piece : code.split("[;{}]")) {
            String decl = piece.strip().replaceAll("\\s+", " ");
            if (decl.startsWith("typedef") || !decl.matches("^[\\w\\s*]*\\brocksdb_\\w+\\s*\\(.*")) {
                continue;
            }
            out.put(name(decl), normalize(decl));
        }
        return out;
    }
}
