package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.framework.GroupedScorer;
import java.util.Arrays;
import java.util.function.ToDoubleFunction;

/**
 * Kept scores for an equivalence key with a {@link GroupedScorer}: each node's answers from the other scorers, kept
 * beside its verdict, so that its score is the tier-order sum with the group's current value in its place. That is
 * exactly what asking every scorer again adds up to (the same numbers added in the same order), where keeping a total
 * and adding the group's value to it would round differently and could change which node wins.
 */
final class GroupedScores {
  /** The grouped scorer's index among the session's scorers. */
  private final int slot;
  /** Answers per node: one per scorer. */
  private final int stride;
  private long[] serials = new long[0];
  private int[] versions = new int[0];
  private double[] parts = new double[0];

  GroupedScores(int slot, int stride) {
    this.slot = slot;
    this.stride = stride;
  }

  /** Keeps {@code answers} (one per scorer, as {@link Sum} recorded them) for {@code node}'s current state. */
  void put(NodeInfo node, double[] answers) {
    int p = node.position();
    if (p >= serials.length) {
      int n = Math.max(p + 1, serials.length * 2);
      int old = serials.length;
      serials = Arrays.copyOf(serials, n);
      Arrays.fill(serials, old, n, -1);
      versions = Arrays.copyOf(versions, n);
      parts = Arrays.copyOf(parts, n * stride);
    }
    serials[p] = node.serial();
    versions[p] = node.version();
    System.arraycopy(answers, 0, parts, p * stride, stride);
  }

  /** Answers it has room for, for the cache's memory bound. */
  long entries() {
    return parts.length;
  }

  /** Whether answers are kept for the node at {@code p} as it is now ({@code serial}, {@code version}). */
  boolean holds(int p, long serial, int version) {
    return p < serials.length && serials[p] == serial && versions[p] == version;
  }

  /** The score at {@code p} with the group's value now; only after {@link #holds} said yes. */
  double total(int p, GroupedScorer.Groups groups) {
    int base = p * stride;
    double total = 0;
    for (int i = 0; i < stride; i++) {
      total += i == slot ? valueAt(groups, p) : parts[base + i];
    }
    return total;
  }

  private static double valueAt(GroupedScorer.Groups groups, int p) {
    int g = groups.groupOf(p);
    return g < 0 ? 0 : groups.value(g);
  }

  /** Every scorer asked, in tier order, each answer recorded for {@link #put}: the sum a fresh search adds. */
  static final class Sum implements ToDoubleFunction<NodeInfo> {
    private final ToDoubleFunction<NodeInfo>[] scorers;
    final double[] last;

    Sum(ToDoubleFunction<NodeInfo>[] scorers) {
      this.scorers = scorers;
      this.last = new double[scorers.length];
    }

    @Override
    public double applyAsDouble(NodeInfo node) {
      double total = 0;
      for (int i = 0; i < scorers.length; i++) {
        double s = scorers[i].applyAsDouble(node);
        last[i] = s;
        total += s;
      }
      return total;
    }
  }
}
