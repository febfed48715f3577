package io.basalt.kube.prebind;

import java.time.Duration;

/**
 * An API call's answer in one shape: the HTTP status code (0: no answer, e.g. I/O error or timeout), the reply body or
 * error text, and the server's {@code Retry-After} (zero when it sent none).
 */
public record ApiReply(int code, String body, Duration retryAfter) {
  /** What an {@link ApiObjects} answers for a write it does not support. */
  public static final ApiReply UNSUPPORTED = new ApiReply(501, "not supported here");

  public ApiReply(int code, String body) {
    this(code, body, Duration.ZERO);
  }

  public boolean ok() {
    return code >= 200 && code < 300;
  }
}
