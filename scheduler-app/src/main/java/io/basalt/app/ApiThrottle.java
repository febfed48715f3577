package io.basalt.app;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Client-side rate limit on API requests ({@code --kube-api-qps}, {@code --kube-api-burst}), a token bucket as
 * client-go's: up to {@code burst} requests at once, refilled at {@code qps} per second. Watches hold one request
 * open and count once.
 */
final class ApiThrottle implements Interceptor {
  private final double qps;
  private final double burst;
  private double tokens;
  private long last = System.nanoTime();

  ApiThrottle(double qps, int burst) {
    this.qps = qps;
    this.burst = Math.max(1, burst);
    this.tokens = this.burst;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    long wait = reserve();
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while throttled", e);
      }
    }
    return chain.proceed(chain.request());
  }

  /** Takes a token; returns how long to wait for it, in nanoseconds. */
  synchronized long reserve() {
    long now = System.nanoTime();
    tokens = Math.min(burst, tokens + (now - last) / 1e9 * qps);
    last = now;
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) (-tokens / qps * 1e9);
  }
}
