package io.basalt.kube.live;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Which failures are worth another try and how long to wait: no answer (I/O error, timeout), 408, 429 and 5xx are
 * transient; any other 4xx says the request itself cannot succeed. Backoff doubles from the initial delay up to a cap;
 * a longer Retry-After from the server wins.
 */
record BindRetry(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
  static boolean retryable(int code) {
    return code == 0 || code == 408 || code == 429 || code >= 500;
  }

  /** Whether a call that failed with {@code code} on attempt {@code attempt} (1-based) gets another. */
  boolean again(int code, int attempt) {
    return retryable(code) && attempt < maxAttempts;
  }

  /** The server may ask for a longer wait than the backoff (Retry-After); honoured up to this. */
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);

  /**
   * The wait after failed attempt {@code attempt}: the backoff, or the server's Retry-After when longer (as
   * client-go does), at most {@link #MAX_RETRY_AFTER}.
   */
  Duration delay(int attempt, Duration retryAfter) {
    Duration asked = retryAfter.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter;
    Duration backoff = backoff(attempt);
    Duration wait = asked.compareTo(backoff) > 0 ? asked : backoff;
    // Up to a fifth more, at random, so many workers throttled at once do not come back at once.
    return wait.plusMillis(ThreadLocalRandom.current().nextLong(wait.toMillis() / 5 + 1));
  }

  /** The wait after failed attempt {@code attempt} (1-based): initial, 2x, 4x ... capped. */
  Duration backoff(int attempt) {
    long millis = initialBackoff.toMillis() << Math.min(attempt - 1, 20);
    return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
  }
}
