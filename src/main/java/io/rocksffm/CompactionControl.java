package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Steering background compaction (issue 32): waiting for it, cancelling it and suggesting a range
 * to it. A part of the database object reached through {@link DatabaseAdmin}'s default methods.
 */
final class CompactionControl {
    private CompactionControl() {}

    static void waitForCompact(Database db, WaitForCompactOptions options) {
        Objects.requireNonNull(options, "options");
        Callbacks.refuseWaiting("waitForCompact");
        try (Scratch s = db.guard.begin()) {
            Capabilities.require("rocksdb_wait_for_compact");
            options.use(o -> rocksdb_wait_for_compact(db.adminDb(), o, s.errptr));
            Native.check(s.errptr);
        }
    }

    static void cancelAllBackgroundWork(Database db, boolean wait) {
        if (wait) {
            Callbacks.refuseWaiting("cancelAllBackgroundWork");
        }
        try (Scratch s = db.guard.begin()) {
            rocksdb_cancel_all_background_work(db.adminDb(), (byte) (wait ? 1 : 0));
        }
    }

    static void suggestCompactRange(Database db, ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        db.guard.checkFamily(family);
        if (begin != null && end != null) {
            Limits.checkRange(begin, end);
            db.families.checkRangeOrder(family.id(), begin, end, "suggestCompactRange");
        }
        try (Scratch s = db.guard.begin(family)) {
            MemorySegment b = begin == null ? MemorySegment.NULL : s.first(begin);
            MemorySegment e = end == null ? MemorySegment.NULL : s.second(end);
            rocksdb_suggest_compact_range_cf(db.adminDb(), family.ptr, b, begin == null ? 0 : begin.byteSize(), e,
                    end == null ? 0 : end.byteSize(), s.errptr);
            Native.check(s.errptr);
        }
    }
}
