package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;

import io.rocksffm.ColumnFamilyDescriptor;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Comparator;
import io.rocksffm.EventListener;
import io.rocksffm.MergeOperands;
import io.rocksffm.MergeOperator;
import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.SstFileWriter;
import io.rocksffm.StringAppendOperator;
import io.rocksffm.ValueOutput;
import io.rocksffm.WriteBatchWithIndex;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import io.rocksffm.CompactionFilter;
import io.rocksffm.PrefixExtractor;
import io.rocksffm.internal.BatchFormat;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenarios of {@link CallbackSafetyTest} that crashed or hung the JVM before issue 36, each run
 * in a child JVM: Java callbacks calling into their own database, and objects RocksDB points at
 * that the caller closed first. Prints one line per step and {@code DONE} at the end; the parent
 * checks the lines, the exit code and that the child ends in time.
 *
 * <p>Arguments: scenario, directory.
 */
public final class CallbackProbe {
    private CallbackProbe() {}

    /** Reverse bytewise order, in Java: every comparison is an upcall. */
    static final class Reverse implements Comparator {
        private final Consumer<MemorySegment> inside;

        Reverse(Consumer<MemorySegment> inside) {
            this.inside = inside;
        }

        @Override
        public String name() {
            return "probe.Reverse";
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            inside.accept(a);
            return -BatchFormat.compareBytewise(a, b);
        }
    }

    /** A merge operator that runs {@code inside} (with the key) before appending like StringAppend. */
    static MergeOperator merging(Consumer<MemorySegment> inside) {
        StringAppendOperator append = new StringAppendOperator(",");
        return new MergeOperator() {
            @Override
            public String name() {
                return append.name();
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands, ValueOutput result) {
                inside.accept(key);
                append.fullMerge(key, existing, operands, result);
            }
        };
    }

    private static final ReadOptions RO = new ReadOptions();

    static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Runs {@code call} and prints its outcome: OK, or the exception's class and its cause's. */
    static void attempt(String what, Runnable call) {
        try {
            call.run();
            say(what + " OK");
        } catch (RuntimeException e) {
            say(what + " THREW " + e.getClass().getSimpleName()
                    + (e.getCause() == null ? "" : " CAUSE " + e.getCause().getClass().getSimpleName()));
        }
    }

    /** What a callback's re-entry did, as a line. */
    static String outcome(Runnable r) {
        try {
            r.run();
            return "REENTRY-OK";
        } catch (IllegalStateException e) {
            return e.getMessage().contains("from inside a") ? "REENTRY-REFUSED" : "REENTRY-ISE " + e.getMessage();
        } catch (RuntimeException e) {
            return "REENTRY-" + e.getClass().getSimpleName();
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        AtomicReference<RocksDB> self = new AtomicReference<>();
        AtomicReference<String> seen = new AtomicReference<>("REENTRY-NONE");
        switch (args[0]) {
            case "merge-reads-itself" -> {
                for (String how : List.of("get", "getPinned", "iterator", "put", "close")) {
                    seen.set("REENTRY-NONE");
                    MergeOperator op = merging(key -> seen.compareAndSet("REENTRY-NONE", outcome(() -> {
                        RocksDB db = self.get();
                        switch (how) {
                            case "get" -> db.get(bytes("other"));
                            case "getPinned" -> {
                                try (PinnedValue v = db.getPinned(RO, MemorySegment.ofArray(bytes("other")))) {
                                    if (v != null) {
                                        v.segment().get(ValueLayout.JAVA_BYTE, 0);
                                    }
                                }
                            }
                            case "iterator" -> {
                                try (RocksIterator it = db.newIterator(RO)) {
                                    it.seekToFirst();
                                }
                            }
                            case "put" -> db.put(bytes("written"), bytes("x"));
                            default -> db.close();
                        }
                    })));
                    Path path = dir.resolve("merge-" + how);
                    try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(op);
                         RocksDB db = RocksDB.open(path, o)) {
                        self.set(db);
                        db.put(bytes("other"), bytes("v"));
                        db.merge(bytes("k"), bytes("a"));
                        db.merge(bytes("k"), bytes("b"));
                        attempt("get-" + how, () -> db.get(bytes("k")));
                        say(how + " " + seen.get());
                    }
                }
            }
            case "comparator-reenters" -> {
                for (String how : List.of("put", "get", "close")) {
                    seen.set("REENTRY-NONE");
                    Reverse cmp = new Reverse(a -> {
                        if (self.get() != null) {
                            seen.compareAndSet("REENTRY-NONE", outcome(() -> {
                                RocksDB db = self.get();
                                switch (how) {
                                    case "put" -> db.put(bytes("inner"), bytes("x"));
                                    case "get" -> db.get(bytes("inner"));
                                    default -> db.close();
                                }
                            }));
                        }
                    });
                    try (Options o = new Options().setCreateIfMissing(true).setComparator(cmp);
                         RocksDB db = RocksDB.open(dir.resolve("cmp-" + how), o)) {
                        db.put(bytes("a"), bytes("1"));
                        self.set(db);
                        attempt("put-" + how, () -> db.put(bytes("b"), bytes("2")));
                        self.set(null);
                        say(how + " " + seen.get());
                    }
                }
            }
            case "filter-closes" -> {
                try (Options o = new Options().setCreateIfMissing(true).setCompactionFilter((level, k, v, out) -> {
                    seen.compareAndSet("REENTRY-NONE", outcome(() -> self.get().close()));
                    return CompactionFilter.Decision.KEEP;
                }); RocksDB db = RocksDB.open(dir.resolve("filter"), o)) {
                    self.set(db);
                    db.put(bytes("a"), bytes("1"));
                    db.flush(true);
                    db.put(bytes("b"), bytes("1"));
                    db.flush(true);
                    attempt("compact", db::compactRange);
                    say("filter " + seen.get());
                    say("value " + new String(db.get(bytes("a"))));
                }
            }
            case "listener-flushes" -> {
                EventListener l = new EventListener() {
                    @Override
                    public void onFlushCompleted(EventListener.FlushJobInfo info) {
                        seen.compareAndSet("REENTRY-NONE", outcome(() -> {
                            self.get().put(bytes("from-listener"), bytes("1")); // writes are allowed
                            self.get().flush(true);
                        }));
                    }
                };
                try (Options o = new Options().setCreateIfMissing(true).addEventListener(l);
                     RocksDB db = RocksDB.open(dir.resolve("listener"), o)) {
                    self.set(db);
                    db.put(bytes("a"), bytes("1"));
                    attempt("flush", () -> db.flush(true));
                    for (int i = 0; i < 200 && seen.get().equals("REENTRY-NONE"); i++) {
                        Thread.sleep(10);
                    }
                    say("listener " + seen.get());
                }
            }
            case "from-string-base-closed" -> {
                Options derived;
                try (Options base = new Options().setCreateIfMissing(true).setComparator(new Reverse(a -> { }))) {
                    derived = Options.fromString(base, "write_buffer_size=1048576");
                }
                try (derived; RocksDB db = RocksDB.open(dir.resolve("derived"), derived)) {
                    db.put(bytes("a"), bytes("1"));
                    db.put(bytes("b"), bytes("2"));
                    try (RocksIterator it = db.newIterator(RO)) {
                        it.seekToFirst();
                        say("first " + new String(it.keyBytes()));
                    }
                }
                Options derived2;
                try (Options base = new Options().setCreateIfMissing(true).setComparator(new Reverse(a -> { }))) {
                    derived2 = Options.fromString(base, "max_open_files=100");
                    try (RocksDB db = RocksDB.open(dir.resolve("derived2"), derived2)) {
                        base.close();
                        derived2.close();
                        db.put(bytes("a"), bytes("1"));
                        db.put(bytes("b"), bytes("2"));
                        say("open-put OK");
                    }
                }
            }
            case "from-string-prefetch" -> {
                for (String kind : List.of("comparator", "merge", "prefix")) {
                    try (Options base = new Options().setCreateIfMissing(true)) {
                        switch (kind) {
                            case "comparator" -> base.setComparator(new Reverse(a -> { }));
                            case "merge" -> base.setMergeOperator(new StringAppendOperator(","));
                            default -> base.setPrefixExtractor(PrefixExtractor.capped(2))
                                    .setMemtablePrefixBloomRatio(0.1);
                        }
                        try (Options derived = Options.fromString(base, "write_buffer_size=1048576");
                             RocksDB db = RocksDB.open(dir.resolve("prefetch-" + kind), derived)) {
                            for (int i = 0; i < 2000; i++) {
                                if (kind.equals("merge")) {
                                    db.merge(bytes("k" + i), bytes("v"));
                                    db.merge(bytes("k" + i), bytes("w"));
                                } else {
                                    db.put(bytes("k" + i), bytes("v"));
                                }
                            }
                            for (long prefetch : new long[] {0, 16 << 10}) {
                                int n = 0;
                                try (RocksIterator it = db.newIterator(RO.setPrefetchBytes(prefetch))) {
                                    for (it.seekToFirst(); it.isValid(); it.next()) {
                                        n++;
                                    }
                                }
                                say(kind + " prefetch " + prefetch + " scanned " + n);
                            }
                        }
                    }
                }
            }
            case "sst-options-closed" -> {
                Options o = new Options().setComparator(new Reverse(a -> { }));
                try (SstFileWriter w = SstFileWriter.open(o, dir.resolve("f.sst"))) {
                    o.close();
                    w.put(bytes("b"), bytes("2"));
                    w.put(bytes("a"), bytes("1"));
                    w.finish();
                    say("sst OK");
                }
            }
            case "wbwi-outlives-db" -> {
                WriteBatchWithIndex batch = new WriteBatchWithIndex();
                AtomicBoolean dbClosed = new AtomicBoolean();
                AtomicInteger oldCalls = new AtomicInteger();
                try (Options o = new Options().setCreateIfMissing(true).setComparator(new Reverse(a -> {
                    if (dbClosed.get()) {
                        oldCalls.incrementAndGet();
                    }
                }));
                     RocksDB db = RocksDB.open(dir.resolve("wbwi"), o)) {
                    ColumnFamilyHandle cf = db.createColumnFamily("cf", o);
                    for (int i = 0; i < 50; i++) { // the batch's index points at the comparator
                        batch.put(cf, MemorySegment.ofArray(bytes("k" + i)), MemorySegment.ofArray(bytes("v" + i)));
                    }
                }
                dbClosed.set(true);
                try (batch; Options o = new Options().setComparator(new Reverse(a -> { }));
                     RocksDB db = RocksDB.open(dir.resolve("wbwi"), o, List.of(new ColumnFamilyDescriptor("cf", o)))) {
                    ColumnFamilyHandle cf = db.columnFamily("cf");
                    say("wbwi " + new String(batch.getFromBatch(cf, o, bytes("k7"))));
                    say("wbwi the first comparator still ran: " + (oldCalls.get() > 0));
                    batch.put(cf, MemorySegment.ofArray(bytes("k77")), MemorySegment.ofArray(bytes("x")));
                    say("wbwi count " + batch.count());
                }
            }
            case "always-less" -> {
                Comparator less = new Comparator() {
                    @Override
                    public String name() {
                        return "probe.AlwaysLess";
                    }

                    @Override
                    public int compare(MemorySegment a, MemorySegment b) {
                        return -1;
                    }
                };
                try (Options o = new Options().setCreateIfMissing(true).setComparator(less);
                     RocksDB db = RocksDB.open(dir.resolve("less"), o)) {
                    for (int i = 0; i < 100; i++) {
                        db.put(bytes("k" + i), bytes("v" + i));
                    }
                    say("written");
                    for (String phase : List.of("memtable", "flushed")) {
                        if (phase.equals("flushed")) {
                            attempt("flush", () -> db.flush(true));
                        }
                        attempt(phase + " seekToLast", () -> {
                            try (RocksIterator it = db.newIterator(RO)) {
                                it.seekToLast();
                                for (int n = 0; n < 1000 && it.isValid(); n++) {
                                    it.prev();
                                }
                            }
                        });
                        attempt(phase + " scan", () -> {
                            try (RocksIterator it = db.newIterator(RO)) {
                                it.seekToFirst();
                                for (int n = 0; n < 1000 && it.isValid(); n++) {
                                    it.next();
                                }
                            }
                        });
                        attempt(phase + " get", () -> db.get(bytes("k5")));
                    }
                }
                say("closed");
            }
            case "halt-after-callbacks", "exit-after-callbacks" -> {
                try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new StringAppendOperator(","))
                        .setCompactionFilter((level, k, v, out) -> CompactionFilter.Decision.KEEP);
                     RocksDB db = RocksDB.open(dir.resolve("exit"), o)) {
                    for (int round = 0; round < 3; round++) {
                        for (int i = 0; i < 100; i++) {
                            db.put(bytes("k" + i), bytes("v"));
                            db.merge(bytes("k" + i), bytes("w" + round));
                        }
                        db.flush(true);
                    }
                    db.compactRange(); // the filter and the merges run on RocksDB's compaction thread
                    say("callbacks ran");
                }
                say("closed");
                if (args[0].startsWith("halt")) {
                    Runtime.getRuntime().halt(0);
                } else {
                    System.exit(0);
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        say("DONE");
    }
}
