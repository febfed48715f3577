package io.basalt.search;

import io.basalt.api.TaskInfo;
import io.basalt.framework.GroupedScorer;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.TaskFilter;
import java.util.Arrays;

/**
 * A task's equivalence class: what every filter's verdict depends on besides the node's own state, and every
 * scorer's score too when each one signs ({@code scoresKept}), as each plugin signs it ({@link PodSigner}). Tasks
 * with equal keys get the same answers on a node whose state did not change, so the {@link EquivalenceCache} answers
 * the second from what the first was told.
 *
 * <p>A filter that signs nothing for the task (its answer reads other pods: spread, inter-pod affinity) is left out
 * of the key as a {@link #residual} filter: the kept verdict is then what the signed filters say, and the residual
 * ones are asked afresh on every node that verdict lets through. The slot holds a marker no signature equals, so
 * such tasks never share verdicts with tasks every filter signs.
 *
 * <p>A scorer that signs nothing but answers per group of nodes ({@link GroupedScorer}) keeps the scores: its slot
 * holds a marker, and the search re-adds its current value to the other scorers' kept answers ({@link GroupedScores}).
 * One such scorer per task; a second one that signs nothing makes the scores unkept.
 *
 * <p>Its parts are compared in order and hashed once (a search looks its key up once per task).
 */
final class EquivalenceKey {
  /** Stands in a key for a filter that signed nothing. */
  private static final Object RESIDUAL = new Object() {
    @Override
    public String toString() {
      return "residual";
    }
  };

  /** Stands in a key for a grouped scorer's answers. */
  private static final Object GROUPED = new Object() {
    @Override
    public String toString() {
      return "grouped";
    }
  };

  private static final TaskFilter[] NONE = new TaskFilter[0];

  private final Object[] parts;
  private final int hash;
  private final boolean scoresKept;
  /** The filters whose verdicts the key holds, in chain order: all of them unless some are {@link #residual}. */
  final TaskFilter[] signed;
  /** The filters that signed nothing, asked on every visit past the kept verdict; empty for most tasks. */
  final TaskFilter[] residual;
  /** The index of the scorer whose answers come from {@link #groups}, or -1 for none. */
  final int grouped;
  /** This task's groups from that scorer (equal for every task of the key within a session); null for none. */
  final GroupedScorer.Groups groups;

  private EquivalenceKey(Object[] parts, boolean scoresKept, TaskFilter[] signed, TaskFilter[] residual, int grouped,
      GroupedScorer.Groups groups) {
    this.parts = parts;
    this.hash = Arrays.hashCode(parts);
    this.scoresKept = scoresKept;
    this.signed = signed;
    this.residual = residual;
    this.grouped = grouped;
    this.groups = groups;
  }

  /**
   * The key of {@code task} under {@code plugins} (the request always counts); without the scores when some scorer
   * depends on more, with residual filters when some filter does. Each plugin is asked once.
   */
  static EquivalenceKey of(SessionPlugins plugins, TaskInfo task) {
    TaskFilter[] filters = plugins.filters;
    Object[] keys = new Object[1 + filters.length + plugins.scorers.length];
    int k = 0;
    keys[k++] = task.request();
    int residuals = 0;
    for (TaskFilter f : filters) {
      Object signature = signature(f, task);
      if (signature == null) {
        signature = RESIDUAL;
        residuals++;
      }
      keys[k++] = signature;
    }
    TaskFilter[] signed = filters;
    TaskFilter[] residual = NONE;
    if (residuals > 0) {
      signed = new TaskFilter[filters.length - residuals];
      residual = new TaskFilter[residuals];
      for (int i = 0, s = 0, r = 0; i < filters.length; i++) {
        if (keys[1 + i] == RESIDUAL) {
          residual[r++] = filters[i];
        } else {
          signed[s++] = filters[i];
        }
      }
    }
    int filtersEnd = k;
    int grouped = -1;
    GroupedScorer.Groups groups = null;
    for (int i = 0; i < plugins.scorers.length; i++) {
      NodeScorer f = plugins.scorers[i];
      Object signature = signature(f, task);
      if (signature == null && grouped < 0 && f instanceof GroupedScorer g && (groups = g.groups(task)) != null) {
        signature = GROUPED;
        grouped = i;
      }
      if ((keys[k++] = signature) == null) {
        return new EquivalenceKey(Arrays.copyOf(keys, filtersEnd), false, signed, residual, -1, null);
      }
    }
    return new EquivalenceKey(keys, true, signed, residual, grouped, groups);
  }

  /** Whether some filter signed nothing: its answers may move with other nodes' pods, not only with the node. */
  boolean hasResidual() {
    return residual.length > 0;
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
