package io.basalt.kube.fake;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A seeded mix of faults for a soak, run by {@link FakeApiServer#soak}: some binds refused with a 500, some applied
 * and then answered 500 (the client never learns it landed), some requests throttled (429) or held, every watch cut
 * at an interval, and one full outage in which nothing is answered.
 *
 * <p>Each request's fate is drawn from a generator seeded with the plan's seed, the request's method and path and how
 * many requests with that method and path came before it, not from one shared stream in arrival order: the third
 * bind of pod {@code ml/p7} meets the same fault under the same seed however the client's threads interleave, so a
 * failure found with a seed can be replayed with it. The watch cuts and the outage follow the wall clock.
 */
public final class FaultPlan {
  /** What was done to a request (or, for {@link #WATCH_CUT}, to the open watches). */
  public enum Kind {
    /** A bind answered 500 and not applied. */
    BIND_ERROR,
    /** A bind applied, then answered 500: the pod is bound but the client is told it failed. */
    BIND_APPLIED_ERROR,
    /** 429 TooManyRequests with Retry-After: 1, not applied. */
    THROTTLED,
    /** Held for {@link Mix#delayBy} before being served normally. */
    DELAYED,
    /** Met the outage: the connection closed without an answer, nothing applied. */
    OUTAGE,
    /** One cut of every open watch (their connections break, as on a network cut). */
    WATCH_CUT
  }

  /**
   * The fractions and times of a plan. {@code bindError} and {@code bindAppliedError} apply to {@code pods/binding}
   * POSTs; {@code throttle} and {@code delay} to every request but watches.
   */
  public record Mix(double bindError, double bindAppliedError, double throttle, double delay, Duration delayBy,
      Duration watchCutEvery, Duration outageAfter, Duration outageFor) {
    public Mix {
      if (bindError + bindAppliedError + throttle + delay > 1) {
        throw new IllegalArgumentException("fractions add up to more than 1");
      }
    }

    /**
     * The hardening issue's mix: 10% of binds refused with 500, 3% applied then answered 500, 2% of requests
     * throttled, 5% held 1.5 s, watches cut every 1.5 s, and a 4 s outage 8 s in.
     */
    public static Mix hardeningIssue() {
      return new Mix(0.10, 0.03, 0.02, 0.05, Duration.ofMillis(1500), Duration.ofMillis(1500), Duration.ofSeconds(8),
          Duration.ofSeconds(4));
    }
  }

  private final long seed;
  private final Mix mix;
  private final Map<String, AtomicLong> seen = new ConcurrentHashMap<>();
  private final Map<Kind, AtomicLong> counts = new EnumMap<>(Kind.class);
  private final AtomicLong binds = new AtomicLong();
  private final AtomicLong watchesCut = new AtomicLong();
  private volatile long startedAt;
  private volatile boolean active;

  public FaultPlan(long seed, Mix mix) {
    this.seed = seed;
    this.mix = mix;
    for (Kind k : Kind.values()) {
      counts.put(k, new AtomicLong());
    }
  }

  public long seed() {
    return seed;
  }

  public Mix mix() {
    return mix;
  }

  /** How many times each kind of fault was injected so far. */
  public Map<Kind, Long> counts() {
    Map<Kind, Long> out = new EnumMap<>(Kind.class);
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  /** Binding POSTs received while the plan was active, faulted or not. */
  public long bindsSeen() {
    return binds.get();
  }

  /** Watch connections broken by the cuts and the outage. */
  public long watchesCut() {
    return watchesCut.get();
  }

  public boolean active() {
    return active;
  }

  void start() {
    startedAt = System.nanoTime();
    active = true;
  }

  void stop() {
    active = false;
  }

  void watchCut(int dropped, boolean count) {
    watchesCut.addAndGet(dropped);
    if (count) {
      counts.get(Kind.WATCH_CUT).incrementAndGet();
    }
  }

  boolean inOutage() {
    long since = System.nanoTime() - startedAt;
    long from = mix.outageAfter().toNanos();
    return active && since >= from && since < from + mix.outageFor().toNanos();
  }

  /** This request's fault, if any; counted. */
  Optional<Faults.Action> decide(RecordedRequest r) {
    if (!active) {
      return Optional.empty();
    }
    boolean bind = r.method().equals("POST") && r.path().endsWith("/binding");
    if (bind) {
      binds.incrementAndGet();
    }
    if (inOutage()) {
      return hit(Kind.OUTAGE, Faults.Action.unanswered());
    }
    if (r.isWatch()) {
      return Optional.empty();
    }
    String key = r.method() + " " + r.path();
    long n = seen.computeIfAbsent(key, k -> new AtomicLong()).getAndIncrement();
    double x = new SplittableRandom(seed ^ key.hashCode() * 0x9E3779B97F4A7C15L ^ n * 0xC2B2AE3D27D4EB4FL)
        .nextDouble();
    if (bind) {
      if (x < mix.bindError()) {
        return hit(Kind.BIND_ERROR, Faults.Action.fail(Statuses.injected(500, "fault plan: bind refused", 0,
            r.path())));
      }
      x -= mix.bindError();
      if (x < mix.bindAppliedError()) {
        return hit(Kind.BIND_APPLIED_ERROR, Faults.Action.applyThenFail(Statuses.injected(500,
            "fault plan: bind applied, answer lost", 0, r.path())));
      }
      x -= mix.bindAppliedError();
    }
    if (x < mix.throttle()) {
      return hit(Kind.THROTTLED, Faults.Action.fail(Statuses.injected(429,
          "Too many requests, please try again later.", 1, r.path())));
    }
    x -= mix.throttle();
    if (x < mix.delay()) {
      return hit(Kind.DELAYED, Faults.Action.hold(mix.delayBy()));
    }
    return Optional.empty();
  }

  private Optional<Faults.Action> hit(Kind kind, Faults.Action action) {
    counts.get(kind).incrementAndGet();
    return Optional.of(action);
  }

  @Override
  public String toString() {
    return "FaultPlan[seed=" + seed + ", " + mix + "]";
  }
}
