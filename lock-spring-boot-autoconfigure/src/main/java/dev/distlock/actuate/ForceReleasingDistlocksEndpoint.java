package dev.distlock.actuate;

import dev.distlock.core.LockRegistry;
import dev.distlock.deployment.DeploymentReports;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code distlocks} endpoint with one write operation: an operator frees a lock whose holder hangs but keeps
 * renewing, {@code DELETE /actuator/distlocks/{name}?fencingToken=...}. The starter defines it in place of
 * {@link DistlocksEndpoint} only when {@code distlock.actuator.force-release.enabled=true}; otherwise the operation
 * does not exist.
 *
 * <p>The caller passes the fencing token that {@code GET /actuator/distlocks/{name}} showed: only that hold ends, in
 * each registry bean whose backend has it, so a call made late can never free a newer hold. The lock then goes to the
 * first waiter queued for it, or is freed, as by its owner's release. Its former owner finds the hold lost at its next
 * renewal ({@code onLost}, {@code distlock.lost}); its code is not stopped, but every later holder's fencing token is
 * larger, so resources that check fencing tokens refuse its late writes. Each release is logged at WARN with who asked
 * (the authenticated principal, when the request has one), the lock and its former holder, and counted in
 * {@code distlock.force.released} when distlock's metrics are on.
 *
 * <pre>{@code
 * {"locks": [{"registry": "lockRegistry", "name": "order:42", "key": "distlock:{order:42}",
 *             "fencingToken": 1718000000000001, "outcome": "RELEASED",
 *             "holder": {"application": "billing", "host": "node-7", "pid": 4242, "instance": "...",
 *                        "started": "2026-01-01T11:00:00Z"},
 *             "currentFencingToken": 1718000000000001}]}
 * }</pre>
 */
@Endpoint(id = "distlocks")
public class ForceReleasingDistlocksEndpoint extends DistlocksEndpoint {

    private final ForcedReleases releases;

    /**
     * Lists and force-releases the holds of the given registries.
     *
     * @param registries the registries by bean name
     * @param deployments their deployment reports, or {@code null} for none
     * @param counted called with a registry's bean name for each hold it force-released (a counter)
     */
    public ForceReleasingDistlocksEndpoint(Map<String, LockRegistry> registries, DeploymentReports deployments,
            Consumer<String> counted) {
        super(registries, deployments);
        this.releases = new ForcedReleases(registries, counted);
    }

    /**
     * Ends the hold of lock {@code name} whose fencing token is {@code fencingToken}, whoever holds it, in each
     * registry bean; a hold with another fencing token is left alone.
     *
     * @param name the lock's name
     * @param fencingToken the hold's fencing token, as {@code GET /actuator/distlocks/{name}} showed it
     * @param security who asks, for the log
     */
    @DeleteOperation
    public ForcedReleasesDescriptor forceRelease(@Selector String name, long fencingToken, SecurityContext security) {
        return new ForcedReleasesDescriptor(releases.release(name, fencingToken, security.getPrincipal()));
    }

    /** What a forced release found in one registry. */
    public enum Outcome {
        /** The hold with the fencing token asked for ended now. */
        RELEASED,
        /** The lock is free: that hold had ended already. */
        NOT_HELD,
        /** The lock is held with another fencing token (a later hold), which was left alone. */
        OTHER_HOLDER,
        /** The registry's backend cannot force a release. */
        UNSUPPORTED
    }

    /**
     * What {@code DELETE /actuator/distlocks/{name}} answers.
     *
     * @param locks what the forced release found in each registry bean, by bean name
     */
    public record ForcedReleasesDescriptor(List<ForcedReleaseDescriptor> locks) implements OperationResponseBody {
    }

    /**
     * What a forced release did in one registry.
     *
     * @param registry the bean name of the registry asked
     * @param name the lock's name
     * @param key where the lock lives in the backend (the Redis key), or the name for other backends
     * @param fencingToken the fencing token asked for: the hold to end
     * @param outcome what it found
     * @param holder who held the ended hold ({@code RELEASED}) or holds the lock now ({@code OTHER_HOLDER}), or
     *        {@code null} if nobody or unknown
     * @param currentFencingToken the ended hold's fencing token ({@code RELEASED}), the current holder's
     *        ({@code OTHER_HOLDER}), or 0
     */
    public record ForcedReleaseDescriptor(String registry, String name, String key, long fencingToken,
            Outcome outcome, DistlocksEndpoint.Holder holder, long currentFencingToken) {
    }
}
