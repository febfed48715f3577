package io.basalt.search;

import io.basalt.framework.NodeScorer;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.TaskFilter;
import io.basalt.session.Callbacks;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's filters (the engine's device check last) and scorers as a search asks them, read from its callbacks
 * once per session: the answers are those of {@link Callbacks#filter} and {@link Callbacks#score}, in their order.
 * The scorers that normalize across a search's candidates ({@link NormalizingScorer}) are apart: they are never
 * keyed, kept or summed per node ({@link Candidates}).
 */
final class SessionPlugins {
  final Callbacks callbacks;
  final TaskFilter[] filters;
  /** The per-node scorers, in tier order. */
  final NodeScorer[] scorers;
  /** The normalizing scorers, in tier order; empty for most sessions, which then search exactly as without them. */
  final NormalizingScorer[] normalizers;
  /** The plugin of each of {@link #normalizers}, for {@code --explain}. */
  final String[] normalizerPlugins;
  /** Whether every answer is recorded as it is asked ({@code --explain}): nothing is then kept or reused. */
  final boolean explaining;

  SessionPlugins(Session session) {
    this.callbacks = session.callbacks();
    this.filters = callbacks.filterChain().toArray(TaskFilter[]::new);
    this.scorers = callbacks.scorers().toArray(NodeScorer[]::new);
    this.normalizers = callbacks.normalizingScorers().toArray(NormalizingScorer[]::new);
    this.normalizerPlugins = callbacks.normalizingPlugins().toArray(String[]::new);
    this.explaining = session.explain().enabled();
  }

  /** Just these scorers (the normalizing ones apart, named by their class), no filter, for tests. */
  SessionPlugins(NodeScorer... scorers) {
    List<NodeScorer> plain = new ArrayList<>();
    List<NormalizingScorer> normalizing = new ArrayList<>();
    for (NodeScorer s : scorers) {
      if (s instanceof NormalizingScorer n) {
        normalizing.add(n);
      } else {
        plain.add(s);
      }
    }
    this.callbacks = null;
    this.filters = new TaskFilter[0];
    this.scorers = plain.toArray(NodeScorer[]::new);
    this.normalizers = normalizing.toArray(NormalizingScorer[]::new);
    this.normalizerPlugins = normalizing.stream().map(n -> n.getClass().getSimpleName()).toArray(String[]::new);
    this.explaining = false;
  }
}
