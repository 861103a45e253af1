package dev.distlock.samples.inventory.demo;

import dev.distlock.samples.inventory.InventoryServiceApplication;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One instance of the demo: the inventory service in its own JVM with the {@code demo} profile, running
 * the rounds its launcher asks for on standard input (see {@link DemoProtocol}). It exits when asked to,
 * and also when its standard input closes, so that it never outlives a launcher that died.
 */
public final class DemoInstance {

    private DemoInstance() {
    }

    /**
     * Starts the instance.
     *
     * @param args Spring Boot arguments: at least the shared database's {@code --spring.datasource.url}
     */
    public static void main(String[] args) {
        int status = 0;
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(InventoryServiceApplication.class)
                .profiles("demo")
                .run(args)) {
            DemoWorkload workload = context.getBean(DemoWorkload.class);
            say(DemoProtocol.READY);
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                RoundRequest request = RoundRequest.parse(line);
                if (request == null) {
                    break; // quit, or anything this instance does not understand
                }
                RoundResult result = workload.run(request, attempted -> say(DemoProtocol.PROGRESS + attempted),
                        failure -> System.out.println("first failure in this round: " + failure));
                say(DemoProtocol.RESULT + result.toLine());
            }
        } catch (Throwable ex) {
            ex.printStackTrace();
            status = 1;
        }
        // the context is closed; end the JVM even if a library left a non-daemon thread behind
        System.exit(status);
    }

    private static synchronized void say(String message) {
        System.out.println(DemoProtocol.PREFIX + message);
        System.out.flush();
    }
}
