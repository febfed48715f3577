package io.basalt.search;

import io.basalt.api.TaskInfo;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.TaskFilter;
import java.util.Arrays;

/**
 * A task's equivalence class: what every filter's verdict depends on besides the node's own state, and every
 * scorer's score too when each one signs ({@code scoresKept}), as each plugin signs it ({@link PodSigner}). Tasks with equal keys get the same answers on a node
 * whose state did not change, so the {@link EquivalenceCache} answers the second from what the first was told.
 *
 * <p>Its parts are compared in order and hashed once (a search looks its key up once per task).
 */
final class EquivalenceKey {
  private final Object[] parts;
  private final int hash;
  private final boolean scoresKept;

  private EquivalenceKey(Object[] parts, boolean scoresKept) {
    this.parts = parts;
    this.hash = Arrays.hashCode(parts);
    this.scoresKept = scoresKept;
  }

  /**
   * The key of {@code task} under {@code plugins} (the request always counts); without the scores when some scorer
   * depends on more, null when some filter does. Each plugin is asked once.
   */
  static EquivalenceKey of(SessionPlugins plugins, TaskInfo task) {
    Object[] keys = new Object[1 + plugins.filters.length + plugins.scorers.length];
    int k = 0;
    keys[k++] = task.request();
    for (TaskFilter f : plugins.filters) {
      if ((keys[k++] = signature(f, task)) == null) {
        return null;
      }
    }
    int filtersEnd = k;
    for (NodeScorer f : plugins.scorers) {
      if ((keys[k++] = signature(f, task)) == null) {
        return new EquivalenceKey(Arrays.copyOf(keys, filtersEnd), false);
      }
    }
    return new EquivalenceKey(keys, true);
  }

  /**
   * Whether some filter is a {@link PodSigner} that declines to sign {@code task}: its answer for the task reads more
   * than the node (other pods, for inter-pod affinity), so it may change while the node does not.
   */
  static boolean declined(SessionPlugins plugins, TaskInfo task) {
    for (TaskFilter f : plugins.filters) {
      if (f instanceof PodSigner s && s.sign(task) == null) {
        return true;
      }
    }
    return false;
  }

  /** What {@code plugin} signs of {@code task} ({@link PodSigner}); null for a plugin that signs nothing. */
  static Object signature(Object plugin, TaskInfo task) {
    return plugin instanceof PodSigner s ? s.sign(task) : null;
  }

  /** Whether tasks of this key get the same scores too, not only the same verdicts. */
  boolean scoresKept() {
    return scoresKept;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof EquivalenceKey p && p.hash == hash && Arrays.equals(p.parts, parts);
  }

  @Override
  public String toString() {
    return Arrays.toString(parts);
  }
}
