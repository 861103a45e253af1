package dev.distlock.micrometer;

import java.util.Locale;

/** How a hold ended: the fixed values of the {@code outcome} tag of {@code distlock.held}. */
enum HoldEnd {

    RELEASED, LOST, RELEASE_FAILED;

    final String tagValue = name().toLowerCase(Locale.ROOT);
}
