package io.basalt.kube.live;

import java.time.Duration;

/**
 * Which failures are worth another try and how long to wait: no answer (I/O error, timeout), 408, 429 and 5xx are
 * transient; any other 4xx says the request itself cannot succeed. Backoff doubles from the initial delay up to a cap.
 */
record BindRetry(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
  static boolean retryable(int code) {
    return code == 0 || code == 408 || code == 429 || code >= 500;
  }

  /** Whether a call that failed with {@code code} on attempt {@code attempt} (1-based) gets another. */
  boolean again(int code, int attempt) {
    return retryable(code) && attempt < maxAttempts;
  }

  /** The wait after failed attempt {@code attempt} (1-based): initial, 2x, 4x ... capped. */
  Duration backoff(int attempt) {
    long millis = initialBackoff.toMillis() << Math.min(attempt - 1, 20);
    return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
  }
}
