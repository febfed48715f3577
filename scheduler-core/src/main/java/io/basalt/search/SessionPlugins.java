package io.basalt.search;

import io.basalt.framework.NodeScorer;
import io.basalt.framework.TaskFilter;
import io.basalt.session.Callbacks;
import io.basalt.session.Session;

/**
 * A session's filters (the engine's device check last) and scorers as a search asks them, read from its callbacks
 * once per session: the answers are those of {@link Callbacks#filter} and {@link Callbacks#score}, in their order.
 */
final class SessionPlugins {
  final Callbacks callbacks;
  final TaskFilter[] filters;
  final NodeScorer[] scorers;
  /** Whether every answer is recorded as it is asked ({@code --explain}): nothing is then kept or reused. */
  final boolean explaining;

  SessionPlugins(Session session) {
    this.callbacks = session.callbacks();
    this.filters = callbacks.filterChain().toArray(TaskFilter[]::new);
    this.scorers = callbacks.scorers().toArray(NodeScorer[]::new);
    this.explaining = session.explain().enabled();
  }

  /** Just these scorers, no filter, for tests. */
  SessionPlugins(NodeScorer... scorers) {
    this.callbacks = null;
    this.filters = new TaskFilter[0];
    this.scorers = scorers;
    this.explaining = false;
  }
}
