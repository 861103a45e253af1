package dev.distlock.samples.inventory.demo;

/**
 * The lines the launcher and an instance exchange. The launcher writes {@link RoundRequest} lines and
 * {@link #QUIT} on the instance's standard input; the instance answers on its standard output with lines
 * starting with {@link #PREFIX}, among whatever else it prints (logs, which the launcher shows).
 */
final class DemoProtocol {

    /** Starts every line an instance writes for the launcher. */
    static final String PREFIX = "@demo ";

    /** The instance has started and waits for rounds. */
    static final String READY = "ready";

    /** Followed by the reservations attempted so far in the round. */
    static final String PROGRESS = "progress ";

    /** Followed by the round's {@link RoundResult#toLine()}. */
    static final String RESULT = "result ";

    /** Sent to an instance: close the application and exit. */
    static final String QUIT = "quit";

    private DemoProtocol() {
    }
}
