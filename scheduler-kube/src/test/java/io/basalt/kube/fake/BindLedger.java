package io.basalt.kube.fake;

import java.util.ArrayList;
import java.util.List;

/**
 * Every {@code pods/binding} the server applied, every one it refused because the pod was already on another
 * node, and every one it refused because the pod still had scheduling gates (a scheduler must never try those). A real API server keeps no such record; a soak needs it to tell "bound once" from "placed twice and saved by
 * the server's 409", which the objects alone cannot show. Thread-safe.
 */
public final class BindLedger {
  /** One binding: pod {@code namespace/name}, the node it named, and for a refusal the node the pod was already on. */
  public record Entry(String pod, String node, String alreadyOn) {
  }

  private final List<Entry> applied = new ArrayList<>();
  private final List<Entry> refused = new ArrayList<>();
  private final List<Entry> gated = new ArrayList<>();
  /** When each pod's first binding was applied ({@link System#nanoTime}), for latency benchmarks. */
  private final java.util.Map<String, Long> appliedAt = new java.util.HashMap<>();

  BindLedger() {
  }

  synchronized void applied(String pod, String node) {
    applied.add(new Entry(pod, node, null));
    appliedAt.putIfAbsent(pod, System.nanoTime());
  }

  /** {@link System#nanoTime} of each pod's first applied binding, by {@code namespace/name}; a copy. */
  public synchronized java.util.Map<String, Long> appliedNanos() {
    return new java.util.HashMap<>(appliedAt);
  }

  synchronized void refused(String pod, String node, String alreadyOn) {
    if (!node.equals(alreadyOn)) {
      refused.add(new Entry(pod, node, alreadyOn));
    }
  }

  synchronized void refusedGated(String pod, String node) {
    gated.add(new Entry(pod, node, null));
  }

  /** Bindings refused (409) because the pod still had scheduling gates. */
  public synchronized List<Entry> gatedRefusals() {
    return List.copyOf(gated);
  }

  /** Bindings applied, in order. */
  public synchronized List<Entry> applied() {
    return List.copyOf(applied);
  }

  /** How many bindings were applied, without copying them (a benchmark polls it). */
  public synchronized int appliedCount() {
    return applied.size();
  }

  /** Bindings refused (409) because the pod was already bound to a different node than the one named. */
  public synchronized List<Entry> rebinds() {
    return List.copyOf(refused);
  }
}
