package dev.distlock.samples.inventory;

import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The stock of each SKU in the database: one row holding the units on hand, plus one movement row per
 * change. Changes are a read, then a write of the new value: correct only while one writer at a time
 * changes a SKU, which is what the lock is for.
 *
 * <p>The stock row also keeps the highest fencing token that wrote it and refuses a write carrying a lower
 * one (see {@link #take(String, int, long)}): a holder whose lock expired while it was paused cannot
 * overwrite the work of the next holder. That check belongs to the resource, not to the lock.
 *
 * <p>Callers bring the transaction.
 */
@Repository
public class StockLedger {

    /** The fencing token recorded for writes made without a lock; real tokens are always larger. */
    static final long UNFENCED = 0;

    private final JdbcTemplate jdbc;

    public StockLedger(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Creates the SKU with an opening balance. */
    public void open(String sku, long quantity) {
        jdbc.update("insert into stock (sku, on_hand, fence) values (?, ?, 0)", sku, quantity);
        record(sku, quantity, UNFENCED, "opening");
    }

    /** Units on hand. */
    public long onHand(String sku) {
        List<Long> onHand = jdbc.queryForList("select on_hand from stock where sku = ?", Long.class, sku);
        if (onHand.isEmpty()) {
            throw new UnknownSkuException(sku);
        }
        return onHand.get(0);
    }

    /**
     * Takes units from stock under a lock whose fencing token is {@code fencingToken}.
     *
     * @throws OutOfStockException if fewer units are on hand
     * @throws StaleFencingTokenException if a holder with a newer token has written the row since
     */
    public Reservation take(String sku, int quantity, long fencingToken) {
        return reserve(sku, quantity, requireToken(fencingToken));
    }

    /**
     * Takes units from stock without a lock: the same read then write, with nothing to stop two callers
     * from reading the same value. For the demo's run without locking.
     */
    public Reservation takeUnfenced(String sku, int quantity) {
        return reserve(sku, quantity, UNFENCED);
    }

    /**
     * Moves units from one SKU to another, under locks of both whose fencing tokens are given.
     *
     * @throws OutOfStockException if {@code from} has fewer units on hand
     * @throws StaleFencingTokenException if a holder with a newer token has written either row since
     */
    public void transfer(String from, String to, int quantity, long fromFence, long toFence) {
        write(from, available(from, quantity) - quantity, -quantity, requireToken(fromFence), "transfer");
        write(to, onHand(to) + quantity, quantity, requireToken(toFence), "transfer");
    }

    /** Every SKU's stock row next to the sum of its movements, by SKU; one statement, so one snapshot. */
    public List<SkuBalance> balances() {
        return jdbc.query("""
                select s.sku, s.on_hand, s.fence, coalesce(sum(m.delta), 0) as movements
                from stock s left join movement m on m.sku = s.sku
                group by s.sku, s.on_hand, s.fence
                order by s.sku""",
                (row, index) -> new SkuBalance(row.getString("sku"), row.getLong("on_hand"),
                        row.getLong("movements"), row.getLong("fence")));
    }

    private Reservation reserve(String sku, int quantity, long fencingToken) {
        write(sku, available(sku, quantity) - quantity, -quantity, fencingToken, "reservation");
        return new Reservation(sku, quantity, fencingToken);
    }

    /** A lock's token is positive; 0 would switch the check off. */
    private static long requireToken(long fencingToken) {
        if (fencingToken <= UNFENCED) {
            throw new IllegalArgumentException("a fencing token is positive, got " + fencingToken);
        }
        return fencingToken;
    }

    private long available(String sku, int quantity) {
        long onHand = onHand(sku);
        if (onHand < quantity) {
            throw new OutOfStockException(sku, quantity, onHand);
        }
        return onHand;
    }

    /** Writes the value read before, unless a write with a newer fencing token came first. */
    private void write(String sku, long onHand, long delta, long fencingToken, String kind) {
        int updated = fencingToken == UNFENCED
                ? jdbc.update("update stock set on_hand = ? where sku = ?", onHand, sku)
                : jdbc.update("update stock set on_hand = ?, fence = ? where sku = ? and fence <= ?", onHand,
                        fencingToken, sku, fencingToken);
        if (updated == 0) {
            throw new StaleFencingTokenException(sku, fencingToken);
        }
        record(sku, delta, fencingToken, kind);
    }

    private void record(String sku, long delta, long fencingToken, String kind) {
        jdbc.update("insert into movement (sku, delta, fence, kind) values (?, ?, ?, ?)", sku, delta, fencingToken,
                kind);
    }
}
