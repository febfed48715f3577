package io.basalt.kube.fake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Fault injection for a {@link FakeApiServer}: latency added to every request, and rules that make the next N
 * matching requests fail with a given HTTP code and the Status a real server sends for it (500 InternalError,
 * 429 TooManyRequests with Retry-After, 409 Conflict, 503, ...). Rules are checked in the order added, after the
 * request is logged and before it touches the store; a rule is used up after its count. A seeded {@link FaultPlan}
 * decides for requests no rule matched. Thread-safe.
 *
 * <pre>{@code
 * server.faults().failNext(1, 500, "GET", "/api/v1/namespaces/ml/pods/p1");
 * server.faults().throttleNext(2, "/api/v1/.*", 1);
 * server.faults().latency(Duration.ofMillis(50));
 * }</pre>
 */
public final class Faults {
  private final List<Rule> rules = new ArrayList<>();
  private volatile Duration latency = Duration.ZERO;
  private volatile FaultPlan plan;

  private static final class Rule {
    private final Predicate<RecordedRequest> match;
    private final int code;
    private final int retryAfterSeconds;
    private final String message;
    private final Duration delay;
    private int remaining;

    Rule(Predicate<RecordedRequest> match, int times, int code, int retryAfterSeconds, String message,
        Duration delay) {
      this.match = match;
      this.remaining = times;
      this.code = code;
      this.retryAfterSeconds = retryAfterSeconds;
      this.message = message;
      this.delay = delay;
    }
  }

  /**
   * What an injected fault does to one request: fail it with {@code error} (after serving it, when
   * {@code applyFirst}), hold it for {@code delay}, or close its connection without an answer ({@code noAnswer}).
   */
  record Action(ApiError error, Duration delay, boolean applyFirst, boolean noAnswer) {
    static Action fail(ApiError error) {
      return new Action(error, Duration.ZERO, false, false);
    }

    static Action applyThenFail(ApiError error) {
      return new Action(error, Duration.ZERO, true, false);
    }

    static Action hold(Duration delay) {
      return new Action(null, delay, false, false);
    }

    static Action unanswered() {
      return new Action(null, Duration.ZERO, false, true);
    }
  }

  Faults() {
  }

  /** Sleeps this long before answering every request (watch streams included, before their first byte). */
  public Faults latency(Duration perRequest) {
    this.latency = perRequest;
    return this;
  }

  public Duration latency() {
    return latency;
  }

  /**
   * The next {@code times} requests whose method equals {@code method} (null: any) and whose path matches the regex
   * {@code pathRegex} as a whole fail with {@code code}.
   */
  public Faults failNext(int times, int code, String method, String pathRegex) {
    return failNextMatching(times, code, byMethodAndPath(method, pathRegex));
  }

  /** As {@link #failNext(int, int, String, String)} for any method. */
  public Faults failNext(int times, int code, String pathRegex) {
    return failNext(times, code, null, pathRegex);
  }

  /** The next {@code times} requests accepted by {@code match} fail with {@code code}. */
  public synchronized Faults failNextMatching(int times, int code, Predicate<RecordedRequest> match) {
    rules.add(new Rule(match, times, code, 1, defaultMessage(code), Duration.ZERO));
    return this;
  }

  /**
   * Holds the next {@code times} requests accepted by {@code match} for {@code delay} before serving them normally,
   * e.g. to let a test change the store before a client's re-watch arrives.
   */
  public synchronized Faults delayNextMatching(int times, Duration delay, Predicate<RecordedRequest> match) {
    rules.add(new Rule(match, times, 0, 0, "", delay));
    return this;
  }

  /** The next {@code times} matching requests get 429 TooManyRequests with {@code Retry-After: seconds}. */
  public synchronized Faults throttleNext(int times, String pathRegex, int retryAfterSeconds) {
    rules.add(new Rule(byMethodAndPath(null, pathRegex), times, 429, retryAfterSeconds,
        "Too many requests, please try again later.", Duration.ZERO));
    return this;
  }

  /** Removes every rule, the latency and the plan. */
  public synchronized void clear() {
    rules.clear();
    latency = Duration.ZERO;
    plan = null;
  }

  /** Consults {@code p} (null: none) for every request no rule matched; see {@link FakeApiServer#soak}. */
  void plan(FaultPlan p) {
    this.plan = p;
  }

  /** Rules not yet used up. */
  public synchronized int pending() {
    return rules.stream().mapToInt(r -> r.remaining).sum();
  }

  Optional<Action> check(RecordedRequest request) {
    Optional<Action> ruled = checkRules(request);
    FaultPlan p = plan;
    return ruled.isPresent() || p == null ? ruled : p.decide(request);
  }

  private synchronized Optional<Action> checkRules(RecordedRequest request) {
    for (Iterator<Rule> it = rules.iterator(); it.hasNext(); ) {
      Rule r = it.next();
      if (r.match.test(request)) {
        if (--r.remaining <= 0) {
          it.remove();
        }
        return Optional.of(r.code == 0 ? Action.hold(r.delay)
            : Action.fail(Statuses.injected(r.code, r.message, r.retryAfterSeconds, request.path())));
      }
    }
    return Optional.empty();
  }

  private static Predicate<RecordedRequest> byMethodAndPath(String method, String pathRegex) {
    Pattern p = Pattern.compile(pathRegex);
    return r -> (method == null || method.equalsIgnoreCase(r.method())) && p.matcher(r.path()).matches();
  }

  private static String defaultMessage(int code) {
    return switch (code) {
      case 500 -> "fake API server: injected failure";
      case 409 -> "fake API server: injected conflict";
      case 429 -> "Too many requests, please try again later.";
      case 503 -> "fake API server: injected unavailability";
      case 504 -> "fake API server: injected timeout";
      default -> "fake API server: injected HTTP " + code;
    };
  }
}
