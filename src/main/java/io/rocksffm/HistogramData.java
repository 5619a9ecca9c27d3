package io.rocksffm;

/**
 * A statistics histogram's summary (RocksDB's {@code HistogramData}), from
 * {@link Statistics#histogram}.
 *
 * @param count   the number of values recorded
 * @param sum     their sum
 * @param min     the smallest value
 * @param max     the largest value
 * @param average the mean
 * @param median  the 50th percentile
 * @param p95     the 95th percentile
 * @param p99     the 99th percentile
 * @param stdDev  the standard deviation
 */
public record HistogramData(long count, long sum, double min, double max, double average, double median, double p95,
                            double p99, double stdDev) {
}
