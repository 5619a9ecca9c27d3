package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Upcalls;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * A destination for RocksDB's info log ({@code rocksdb_logger_t}), set with
 * {@link Options#setInfoLogger} instead of the {@code LOG} file in the database directory:
 * Java code ({@link #toSystemLogger}, {@link #of}) or the process's standard error
 * ({@link #stderr}).
 *
 * {@snippet id="InfoLogger" :
 * Queue<String> messages = new ConcurrentLinkedQueue<>();   // the sink runs on RocksDB's threads
 * try (InfoLogger logger = InfoLogger.of(InfoLogLevel.INFO, (level, message) -> messages.add(message));
 *      Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);   // no LOG file
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 *     db.flush(true);   // logged from a background thread
 * }   // closed in reverse order: the logger last, after the database's last messages
 * }
 *
 * <p><b>Threads.</b> RocksDB writes its info log from the threads that call it and from its
 * background threads (flushes, compactions), concurrently: a Java sink must be thread-safe. It
 * may run while RocksDB holds the database's internal mutex, so it must be quick and must not
 * call the database: a database whose options set a Java logger refuses calls made from inside
 * the sink with {@link IllegalStateException} (they would deadlock). As RocksDB may log from any
 * read, the iterators of such a database never move with critical downcalls (see
 * {@link ReadOptions#setPrefetchBytes}).
 *
 * <p><b>Failures.</b> An exception the sink throws is caught (it would end the JVM if it escaped
 * into RocksDB): the message is dropped, counted ({@link #failureCount()}) and the exception kept
 * ({@link #lastFailure()}); the database keeps working.
 *
 * <p><b>Ownership.</b> The caller owns the logger and closes it after the options it was set on
 * and the databases opened with them: they hold it open, and {@link #close()} throws
 * {@link IllegalStateException} until they are closed, so every message RocksDB writes up to and
 * including a database's close reaches the sink. After the logger's close no message reaches the
 * sink: a message RocksDB would still write through a copy it kept is dropped.
 *
 * <p>The C API has the callback logger from RocksDB 9.5 and the standard-error logger from 9.0,
 * not 7.8.3: there the factories throw {@link UnsupportedOperationException} naming the function.
 * Safe to share across threads and databases; use after close throws {@link IllegalStateException}.
 */
public final class InfoLogger extends NativeObject {
    /** The Java loggers RocksDB may call, by a handle never reused (a late call finds no other logger). */
    private static final ConcurrentHashMap<Long, InfoLogger> LIVE = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT = new AtomicLong(1);
    /** Messages that arrived for a closed logger (through a copy RocksDB kept), dropped. */
    private static final AtomicLong LATE = new AtomicLong();

    /** {@code void (*)(void* priv, unsigned lev, char* msg, size_t len)}. */
    private static final MemorySegment LOG = Upcalls.stub(MethodHandles.lookup(), InfoLogger.class, "log",
            Upcalls.addressesAsLongs(FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG)), null);

    private final BiConsumer<InfoLogLevel, String> sink;
    private final int minLevel;
    private final long handle;
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile Throwable lastFailure;

    private InfoLogger(MemorySegment logger, BiConsumer<InfoLogLevel, String> sink, int minLevel, long handle) {
        super("InfoLogger", logger);
        this.sink = sink;
        this.minLevel = minLevel;
        this.handle = handle;
    }

    /**
     * A logger that sends each message to {@code logger}, at the level mapped from RocksDB's:
     * {@code DEBUG} to {@link System.Logger.Level#DEBUG}, {@code INFO} and {@code HEADER} to
     * {@code INFO}, {@code WARN} to {@code WARNING}, {@code ERROR} and {@code FATAL} to
     * {@code ERROR} ({@link #systemLevel}).
     *
     * @param logger   the destination (called from RocksDB's threads: must be thread-safe)
     * @param minLevel the least severe messages the logger receives
     * @return a new logger, owned by the caller
     * @throws NullPointerException if an argument is null
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_logger_create_callback_logger} (before 9.5)
     */
    public static InfoLogger toSystemLogger(System.Logger logger, InfoLogLevel minLevel) {
        Objects.requireNonNull(logger, "logger");
        return of(minLevel, (level, message) -> logger.log(systemLevel(level), message));
    }

    /**
     * A logger that hands each message to {@code sink} (see the class comment for its threads and
     * failures).
     *
     * @param minLevel the least severe messages the sink receives (RocksDB sends a few lines, like
     *                 its header at {@code INFO}, whatever its level: those below are dropped)
     * @param sink     receives each message's level and text (without a trailing newline)
     * @return a new logger, owned by the caller
     * @throws NullPointerException if an argument is null
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_logger_create_callback_logger} (before 9.5)
     */
    public static InfoLogger of(InfoLogLevel minLevel, BiConsumer<InfoLogLevel, String> sink) {
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(sink, "sink");
        Native.engine();
        Capabilities.require("rocksdb_logger_create_callback_logger");
        long handle = NEXT.getAndIncrement();
        MemorySegment logger = rocksdb_logger_create_callback_logger(minLevel.id, LOG, MemorySegment.ofAddress(handle));
        InfoLogger out = new InfoLogger(logger, sink, minLevel.id, handle);
        LIVE.put(handle, out);
        return out;
    }

    /**
     * A logger that writes to the process's standard error, each line starting with
     * {@code prefix} ({@code rocksdb_logger_create_stderr_logger}); no Java code runs.
     *
     * @param minLevel the least severe messages RocksDB writes
     * @param prefix   the prefix of every line (no NUL character)
     * @return a new logger, owned by the caller
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code prefix} contains a NUL character
     * @throws UnsupportedOperationException if the engine lacks the function (before 9.0)
     */
    public static InfoLogger stderr(InfoLogLevel minLevel, String prefix) {
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("prefix contains a NUL character");
        }
        Native.engine();
        Capabilities.require("rocksdb_logger_create_stderr_logger");
        try (Arena arena = Arena.ofConfined()) {
            return new InfoLogger(rocksdb_logger_create_stderr_logger(minLevel.id, arena.allocateFrom(prefix)), null, minLevel.id, 0);
        }
    }

    /**
     * The {@link System.Logger.Level} a RocksDB level maps to.
     *
     * @param level RocksDB's level
     * @return {@code DEBUG}, {@code INFO}, {@code WARNING} or {@code ERROR}
     * @throws NullPointerException if {@code level} is null
     */
    public static System.Logger.Level systemLevel(InfoLogLevel level) {
        return switch (Objects.requireNonNull(level, "level")) {
            case DEBUG -> System.Logger.Level.DEBUG;
            case INFO, HEADER -> System.Logger.Level.INFO;
            case WARN -> System.Logger.Level.WARNING;
            case ERROR, FATAL -> System.Logger.Level.ERROR;
        };
    }

    /** Whether the logger runs Java code. */
    boolean callsJava() {
        return sink != null;
    }

    /**
     * The messages the sink received (returned from or threw).
     *
     * @return the count since creation
     */
    public long messageCount() {
        return messages.get();
    }

    /**
     * The messages the sink threw an exception for (dropped).
     *
     * @return the count since creation
     */
    public long failureCount() {
        return failures.get();
    }

    /** {@return the last exception the sink threw, or null} */
    public Throwable lastFailure() {
        return lastFailure;
    }

    /**
     * Frees the logger (the Java sink gets no message after this). Idempotent.
     *
     * @throws IllegalStateException while options it was set on, or databases opened with them,
     *         are open (close them first)
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "options or databases using it");
    }

    @Override
    void destroy(MemorySegment logger) {
        if (sink != null) {
            LIVE.remove(handle);
        }
        rocksdb_logger_destroy(logger);
    }

    /** The upcall: one message; never throws (the stub catches what escapes anyway). */
    private static void log(long priv, int level, long msg, long len) {
        InfoLogger l = LIVE.get(priv);
        if (l == null) {
            LATE.incrementAndGet();
            return;
        }
        if (level < l.minLevel) {
            return; // RocksDB sends some lines (its header, at INFO) whatever the level
        }
        int mark = Callbacks.enter(Callbacks.Kind.INFO_LOGGER);
        try {
            l.messages.incrementAndGet();
            String text = new String(Upcalls.view(msg, len).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            int n = text.length();
            while (n > 0 && (text.charAt(n - 1) == '\n' || text.charAt(n - 1) == '\0')) {
                n--;
            }
            l.sink.accept(level >= 0 && level <= 5 ? InfoLogLevel.of(level) : InfoLogLevel.INFO, text.substring(0, n));
        } catch (Throwable t) {
            l.failures.incrementAndGet();
            l.lastFailure = t;
            Upcalls.failed(0, t);
        } finally {
            Callbacks.exit(mark);
        }
    }
}
