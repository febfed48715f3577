package io.basalt.search;

import io.basalt.api.Demand;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.GroupedScorer;
import io.basalt.framework.TaskFilter;
import io.basalt.model.ResourceNames;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.Session;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One node search's visits: the best node seen so far, now and once releasing pods are gone, and how many feasible
 * nodes were seen. A visit reads the node's kept verdict for the task's key when it still holds
 * ({@link EquivalenceCache}) and asks fit, filters and scores otherwise; the same asking serves a
 * {@link FeasibilityTree}.
 */
final class Visits implements FeasibilityTree.Evaluator, FeasibilityTree.NodeSearchResult {
  final Session session;
  final TaskInfo task;
  final boolean[] skip;
  /** What the fit checks read of the task's request, worked out once for the search. */
  private final Demand demand;
  /** The filters, each prepared for the task once: with {@link #verdicts}, those whose verdicts it keeps. */
  private final Function<NodeInfo, FilterResult> filtering;
  /**
   * The filters that signed nothing for the task, asked on each node the kept verdict lets through; null when there
   * are none or no verdicts are kept (then {@link #filtering} asks every filter).
   */
  private final Function<NodeInfo, FilterResult> residual;
  final ExplainRecorder explain;
  final ToDoubleFunction<NodeInfo> scoring;
  /** Verdicts kept for the task's key, or null when some filter or scorer depends on more than the node. */
  final EquivalenceCache.Table verdicts;
  /** Whether {@link #verdicts} hold the scores too (every scorer named a key, or answers per group). */
  final boolean scoresKept;
  /** For a key with a grouped scorer: the other scorers' kept answers, the groups, and where a visit records them. */
  private final GroupedScores grouped;
  private final GroupedScorer.Groups groups;
  private final double[] answers;
  NodeInfo now;
  NodeInfo later;
  double nowScore = Double.NEGATIVE_INFINITY;
  double laterScore = Double.NEGATIVE_INFINITY;
  int found;
  private double lastScore;
  /**
   * The feasible nodes gathered for the normalizing scorers that score this task, which choose the best once the
   * visits are over ({@link #finish}); null for a task no normalizing scorer scores, whose best is kept as it goes.
   */
  final Candidates candidates;

  /**
   * @param key the task's equivalence key, null when nothing is kept ({@code --explain}); {@code verdicts} its kept
   *     verdicts, null when the cache keeps no more keys
   */
  Visits(Session session, TaskInfo task, boolean[] skip, ExplainRecorder explain, SessionPlugins plugins,
      EquivalenceCache cache, EquivalenceKey key, EquivalenceCache.Table verdicts) {
    this.session = session;
    this.task = task;
    this.skip = skip;
    this.explain = explain;
    this.verdicts = verdicts;
    this.grouped = verdicts != null && key.scoresKept() && key.grouped >= 0
        ? cache.grouped(verdicts, key, plugins.scorers.length) : null;
    this.groups = grouped == null ? null : key.groups;
    this.scoresKept = key != null && key.scoresKept() && (key.grouped < 0 || grouped != null);
    TaskFilter[] filters = verdicts != null ? key.signed : plugins.filters;
    PreparedChecks p = verdicts != null && scoresKept ? verdicts.prepared(plugins, key, task, skip)
        : scoresKept || key == null ? PreparedChecks.fresh(plugins, filters, task, skip)
        : PreparedChecks.keepingScores(session, plugins, filters, cache, task, skip);
    this.residual = verdicts != null && key.hasResidual() ? PreparedChecks.filtering(key.residual, task) : null;
    this.demand = p.demand();
    this.filtering = p.filtering();
    this.scoring = p.scoring();
    this.answers = grouped == null ? null : ((GroupedScores.Sum) scoring).last;
    this.candidates = Candidates.of(plugins, task);
  }

  /** The groups a grouped scorer answers from for this task, whose changes a {@link FeasibilityTree} re-adds; or null. */
  GroupedScorer.Groups groups() {
    return groups;
  }

  /** Whether the best node is known only once every visit is over (a {@link FeasibilityTree} cannot find it). */
  boolean normalizing() {
    return candidates != null;
  }

  /** Ends the search: with {@link #candidates}, their normalized totals choose {@link #now} and {@link #later}. */
  void finish() {
    if (candidates != null) {
      candidates.choose(this, explain);
    }
  }

  void visit(NodeInfo node) {
    visit(node, node.position(), verdicts == null ? EquivalenceCache.UNKNOWN : verdicts.outcome(node));
  }

  /**
   * As {@link #visit(NodeInfo)} for the session's node at {@code position}: its kept verdict is checked against
   * what {@code index} records of the node, so a visit answered from the verdicts does not read the node at all.
   */
  void visit(NodeInfo node, int position, CapacityIndex index) {
    visit(node, position, verdicts == null ? EquivalenceCache.UNKNOWN
        : verdicts.outcome(position, index.serial(position), index.version(position)));
  }

  /**
   * The kept verdict {@code kept} taken as it is, or the node asked and its verdict kept when none holds; a feasible
   * one then passes the residual filters or is taken as filtered.
   */
  private void visit(NodeInfo node, int position, byte kept) {
    if (kept != EquivalenceCache.UNKNOWN) {
      if (kept < EquivalenceCache.NOW) {
        take(node, kept, 0);
      } else if (residual != null && !residual.apply(node).ok()) {
        take(node, EquivalenceCache.FILTERED, 0);
      } else {
        take(node, kept, scoresKept ? keptScore(node, position) : scoring.applyAsDouble(node));
      }
      return;
    }
    byte outcome = evaluate(node);
    if (verdicts != null) {
      verdicts.put(node, outcome, lastScore);
    }
    if (outcome >= EquivalenceCache.NOW && residual != null && !residual.apply(node).ok()) {
      outcome = EquivalenceCache.FILTERED;
    }
    take(node, outcome, lastScore);
  }

  @Override
  public double lastScore() {
    return lastScore;
  }

  /**
   * The kept score of a node whose kept verdict is feasible: with a grouped scorer, the other scorers' kept answers and
   * the group's value now (the scorers asked again when the answers kept are for another state of the node).
   */
  private double keptScore(NodeInfo node, int position) {
    if (grouped == null) {
      return verdicts.score(position);
    }
    if (grouped.holds(position, node.serial(), node.version())) {
      return grouped.total(position, groups);
    }
    double score = scoring.applyAsDouble(node);
    grouped.put(node, answers);
    return score;
  }

  @Override
  public double rescore(NodeInfo node) {
    return keptScore(node, node.position());
  }

  @Override
  public void found(NodeInfo now, NodeInfo later) {
    this.now = now;
    this.later = later;
  }

  /** Fit, then filters, then scores: the verdict a visit works out when none is kept. */
  @Override
  public byte evaluate(NodeInfo node) {
    byte outcome;
    double score = 0;
    int missing = node.firstShortOfFuture(demand);
    if (missing >= 0) {
      if (explain != null) {
        explain.filtered(task, node, "Insufficient " + ResourceNames.name(missing));
      }
      outcome = EquivalenceCache.SHORT;
    } else {
      FilterResult verdict = filtering.apply(node);
      if (!verdict.ok()) {
        if (explain != null) {
          explain.filtered(task, node, verdict.reason());
        }
        outcome = EquivalenceCache.FILTERED;
      } else {
        score = scoring.applyAsDouble(node);
        if (grouped != null) {
          grouped.put(node, answers);
        }
        outcome = node.firstShortOfIdle(demand) < 0 ? EquivalenceCache.NOW : EquivalenceCache.LATER;
      }
    }
    lastScore = score;
    return outcome;
  }

  private void take(NodeInfo node, byte outcome, double score) {
    if (candidates != null) {
      if (outcome >= EquivalenceCache.NOW) {
        found++;
        candidates.add(node, score, outcome == EquivalenceCache.NOW);
      }
      return;
    }
    if (outcome == EquivalenceCache.NOW) {
      found++;
      if (score > nowScore) {
        nowScore = score;
        now = node;
      }
    } else if (outcome == EquivalenceCache.LATER) {
      found++;
      if (score > laterScore) {
        laterScore = score;
        later = node;
      }
    }
  }
}
