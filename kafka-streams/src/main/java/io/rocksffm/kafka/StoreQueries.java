package io.rocksffm.kafka;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;

import java.util.Map;

/**
 * Interactive queries (IQv2) on a {@link RocksffmKeyValueStore}: key and range queries with
 * position bounds, at the query's isolation level ({@code READ_COMMITTED} skips the uncommitted
 * writes and answers with the committed position).
 */
final class StoreQueries {
    private StoreQueries() {
    }

    /** Whether {@code position} has reached {@code bound} for {@code partition}. */
    static boolean isPermitted(Position position, PositionBound bound, Integer partition) {
        if (bound.isUnbounded()) {
            return true;
        }
        Position required = bound.position();
        for (String topic : required.getTopics()) {
            Map<Integer, Long> wanted = required.getPartitionPositions(topic);
            if (partition == null || !wanted.containsKey(partition)) {
                continue;
            }
            Long seen = position.getPartitionPositions(topic).get(partition);
            if (seen == null || seen < wanted.get(partition)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The query's isolation level; {@code READ_UNCOMMITTED} on kafka-streams before 4.4, whose
     * {@code QueryConfig} has none (every read there sees the store's writes).
     */
    static IsolationLevel isolationLevel(QueryConfig config) {
        try {
            return config.getIsolationLevel();
        } catch (NoSuchMethodError beforeKafka44) {
            return IsolationLevel.READ_UNCOMMITTED;
        }
    }

    @SuppressWarnings("unchecked")
    static <R> QueryResult<R> query(RocksffmKeyValueStore store, Query<R> query, PositionBound bound, QueryConfig config,
                                    Integer partition) {
        long start = System.nanoTime();
        Position position;
        QueryResult<R> result;
        boolean uncommitted = isolationLevel(config) != IsolationLevel.READ_COMMITTED;
        synchronized (store) {
            position = (uncommitted ? store.getPosition() : store.committedPosition()).copy();
            if (!isPermitted(position, bound, partition)) {
                return QueryResult.notUpToBound(position, bound, partition);
            }
            if (query instanceof KeyQuery<?, ?> key) {
                result = QueryResult.forResult((R) store.get((Bytes) key.getKey(), uncommitted));
            } else if (query instanceof RangeQuery<?, ?> range) {
                Bytes lower = (Bytes) range.getLowerBound().orElse(null);
                Bytes upper = (Bytes) range.getUpperBound().orElse(null);
                result = QueryResult.forResult((R) store.range(lower, upper,
                        range.resultOrder() == ResultOrder.DESCENDING, uncommitted));
            } else {
                result = QueryResult.forUnknownQueryType(query, store);
            }
        }
        if (config.isCollectExecutionInfo()) {
            result.addExecutionInfo("Handled in " + store.getClass() + " " + store.name() + " in "
                    + (System.nanoTime() - start) + "ns");
        }
        result.setPosition(position);
        return result;
    }
}
