package dev.distlock.samples.inventory;

import dev.distlock.core.LockTimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The HTTP face of the service. */
@RestController
public class InventoryController {

    private final InventoryService inventory;
    private final StockTransfers transfers;
    private final SupplierQuotes supplier;

    public InventoryController(InventoryService inventory, StockTransfers transfers, SupplierQuotes supplier) {
        this.inventory = inventory;
        this.transfers = transfers;
        this.supplier = supplier;
    }

    /** {@code GET /supplier/quotes/sku-1}: the supplier's price in cents, at most 2 calls at once service-wide. */
    @GetMapping("/supplier/quotes/{sku}")
    public long quote(@PathVariable String sku) throws InterruptedException {
        return supplier.quote(sku);
    }

    /** {@code GET /stock/sku-1}: units on hand. */
    @GetMapping("/stock/{sku}")
    public long onHand(@PathVariable String sku) {
        return inventory.onHand(sku);
    }

    /** {@code POST /stock/sku-1/reservations?quantity=2}: takes units from stock. */
    @PostMapping("/stock/{sku}/reservations")
    public Reservation reserve(@PathVariable String sku, @RequestParam(defaultValue = "1") int quantity) {
        return inventory.reserve(sku, quantity);
    }

    /** {@code POST /transfers?from=sku-1&to=sku-2&quantity=3}: moves units between SKUs. */
    @PostMapping("/transfers")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void transfer(@RequestParam String from, @RequestParam String to, @RequestParam int quantity) {
        transfers.transfer(from, to, quantity);
    }

    @ExceptionHandler(UnknownSkuException.class)
    @ResponseStatus(HttpStatus.NOT_FOUND)
    String unknown(UnknownSkuException ex) {
        return ex.getMessage();
    }

    @ExceptionHandler(OutOfStockException.class)
    @ResponseStatus(HttpStatus.CONFLICT)
    String outOfStock(OutOfStockException ex) {
        return ex.getMessage();
    }

    @ExceptionHandler(IllegalArgumentException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    String invalid(IllegalArgumentException ex) {
        return ex.getMessage();
    }

    /** The SKU stayed locked by other requests for longer than the service waits: try again later. */
    @ExceptionHandler(LockTimeoutException.class)
    @ResponseStatus(HttpStatus.SERVICE_UNAVAILABLE)
    String busy(LockTimeoutException ex) {
        return ex.getMessage();
    }
}
