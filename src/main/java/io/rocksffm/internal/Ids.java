package io.rocksffm.internal;

import java.util.function.ToIntFunction;

/** Looks up the constant of an enum that mirrors a C enum by its C value. */
public final class Ids {
    private Ids() {
    }

    /**
     * The constant of {@code values} whose C value is {@code id}.
     *
     * @param values the enum's constants
     * @param idOf   a constant's C value
     * @param id     the C value looked up
     * @param what   what the enum is, for the message
     * @param <E>    the enum
     * @return the constant
     * @throws IllegalArgumentException if no constant has that value
     */
    public static <E extends Enum<E>> E of(E[] values, ToIntFunction<E> idOf, int id, String what) {
        for (E v : values) {
            if (idOf.applyAsInt(v) == id) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " " + id);
    }
}
