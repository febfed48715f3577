package io.basalt.actions;

import io.basalt.config.Arguments;

/**
 * The {@code percentageOfNodesToScore} argument, declared once for every action that searches nodes (allocate,
 * backfill), so each reads it with the same default and the same range check: 0 (adaptive, as kube-scheduler) to 100
 * (every node).
 */
final class NodesToScore {
  static final String KEY = "percentageOfNodesToScore";

  private NodesToScore() {}

  /** A node search configured from {@code args}; a value out of range is a problem there and leaves the default. */
  static NodeSearch search(Arguments args) {
    int pct = args.getInt(KEY, 0);
    if (pct < 0 || pct > 100) {
      args.problem(KEY, "must be between 0 and 100, got " + pct);
      pct = 0;
    }
    return new NodeSearch(pct);
  }
}
