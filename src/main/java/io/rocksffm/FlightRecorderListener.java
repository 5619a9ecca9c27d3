package io.rocksffm;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** The listener of {@link EventListener#flightRecorder()}: RocksDB's flushes and compactions as JFR events. */
final class FlightRecorderListener implements EventListener {
    /** A flush, as JDK Flight Recorder shows it. */
    @Name("io.rocksffm.FlushCompleted")
    @Label("RocksDB Flush Completed")
    @Category({"RocksDB"})
    @Description("A memtable flushed to a table file")
    static final class FlushCompleted extends Event {
        @Label("Column Family")
        String columnFamily;
        @Label("File")
        String file;
        @Label("Smallest Sequence Number")
        long smallestSeqno;
        @Label("Largest Sequence Number")
        long largestSeqno;
        @Label("Reason")
        int reason;
        @Label("Triggered Writes Slowdown")
        boolean triggeredWritesSlowdown;
        @Label("Triggered Writes Stop")
        boolean triggeredWritesStop;
    }

    /** A compaction, as JDK Flight Recorder shows it. */
    @Name("io.rocksffm.CompactionCompleted")
    @Label("RocksDB Compaction Completed")
    @Category({"RocksDB"})
    @Description("A compaction finished")
    static final class CompactionCompleted extends Event {
        @Label("Column Family")
        String columnFamily;
        @Label("Status")
        String status;
        @Label("Base Input Level")
        int baseInputLevel;
        @Label("Output Level")
        int outputLevel;
        @Label("Input Files")
        int inputFiles;
        @Label("Output Files")
        int outputFiles;
        @Label("Input Records")
        long inputRecords;
        @Label("Output Records")
        long outputRecords;
        @Label("Input Bytes")
        @DataAmount
        long inputBytes;
        @Label("Output Bytes")
        @DataAmount
        long outputBytes;
        @Label("Compaction Time")
        @Timespan(Timespan.MICROSECONDS)
        long elapsed;
        @Label("Reason")
        int reason;
    }

    @Override
    public void onFlushCompleted(FlushJobInfo info) {
        FlushCompleted e = new FlushCompleted();
        if (e.isEnabled()) {
            e.columnFamily = info.columnFamily();
            e.file = info.filePath();
            e.smallestSeqno = info.smallestSeqno();
            e.largestSeqno = info.largestSeqno();
            e.reason = info.reason();
            e.triggeredWritesSlowdown = info.triggeredWritesSlowdown();
            e.triggeredWritesStop = info.triggeredWritesStop();
            e.commit();
        }
    }

    @Override
    public void onCompactionCompleted(CompactionJobInfo info) {
        CompactionCompleted e = new CompactionCompleted();
        if (e.isEnabled()) {
            e.columnFamily = info.columnFamily();
            e.status = info.status() == null ? "OK" : info.status().getMessage();
            e.baseInputLevel = info.baseInputLevel();
            e.outputLevel = info.outputLevel();
            e.inputFiles = info.inputFiles().size();
            e.outputFiles = info.outputFiles().size();
            e.inputRecords = info.inputRecords();
            e.outputRecords = info.outputRecords();
            e.inputBytes = info.totalInputBytes();
            e.outputBytes = info.totalOutputBytes();
            e.elapsed = info.elapsedMicros();
            e.reason = info.reason();
            e.commit();
        }
    }
}
