package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.FilterResult;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.Session;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the best node for one task: the hot path of every placing action.
 *
 * <p>Nodes are probed from a rotating start so successive tasks spread their probes. A node must have the resources
 * (now, or once releasing pods are gone) and pass every filter. Like kube-scheduler's
 * {@code percentageOfNodesToScore}, the search stops once enough feasible nodes were found (all nodes below 100;
 * {@code max(5, 50 - N/125)} percent of larger clusters, at least 100 nodes), then takes the highest score, preferring
 * nodes where the task fits now over nodes where it would be pipelined. The resource check comes first because it is
 * a handful of array reads and rules out most nodes of a busy cluster before any plugin runs; the scheduler never
 * places a task where its requests do not fit, whatever the tiers say.
 *
 * <p>A search that finds nothing is remembered by the task's {@link TaskShape} ({@link NoFitMemo}) until a node that
 * gave room back takes the shape, so the hundreds of identical pending pods of a saturated cluster cost one scan, not
 * one each. That memo and the rotating start are shared by every search of the session (allocate's, backfill's,
 * preempt's): the search keeps them in the session's scratch, which the session holds without knowing what is in it.
 */
public final class NodeSearch {
  private static final int MIN_FEASIBLE_NODES = 100;

  /** The argument every action that searches nodes reads: 0 (adaptive, as kube-scheduler) to 100 (every node). */
  public static final String NODES_TO_SCORE = "percentageOfNodesToScore";

  /** The chosen node, whether the task must wait there for releasing resources, or why no node fits. */
  public record Result(NodeInfo node, boolean pipelined, String fitError) {}

  /**
   * The nodes a search is confined to (a network domain's ready nodes for a topology-constrained job), probed in
   * their order from the first; {@code name} keys the "no node fits" memo apart from whole-cluster searches.
   */
  public record Scope(String name, List<NodeInfo> nodes) {}

  /** The "no node fits" memo as a trial found it, for {@link #restore}. */
  public static final class Checkpoint {
    private final NoFitMemo.Saved saved;

    private Checkpoint(NoFitMemo.Saved saved) {
      this.saved = saved;
    }
  }

  /** A failed search's memo key inside a scope. */
  private record ScopedShape(String scope, TaskShape shape) {}

  private final int percentageOfNodesToScore;
  /** Nodes' answers per equivalence class, kept from session to session while the node copies are unchanged. */
  private final EquivalenceCache cache = new EquivalenceCache();
  /** The capacity index of the last session searched, whose trees the next session's index starts from. */
  private CapacityIndex lastIndex;

  /** @param percentageOfNodesToScore 1..100, or 0 for the adaptive default */
  public NodeSearch(int percentageOfNodesToScore) {
    this.percentageOfNodesToScore = percentageOfNodesToScore;
  }

  /**
   * A search configured from an action's {@code args} ({@link #NODES_TO_SCORE}), read the same way by every action;
   * a value out of range is a problem there and leaves the default.
   */
  public static NodeSearch configured(Arguments args) {
    int pct = args.getInt(NODES_TO_SCORE, 0);
    if (pct < 0 || pct > 100) {
      args.problem(NODES_TO_SCORE, "must be between 0 and 100, got " + pct);
      pct = 0;
    }
    return new NodeSearch(pct);
  }

  /**
   * An equality key for tasks every filter sees alike (same request, selectors, tolerations, labels, annotations):
   * callers remembering "found no room" per kind of task key it by this.
   */
  public static Object shape(TaskInfo task) {
    return TaskShape.of(task);
  }

  int feasibleNodesToFind(int nodes) {
    if (nodes < MIN_FEASIBLE_NODES || percentageOfNodesToScore >= 100) {
      return nodes;
    }
    int pct = percentageOfNodesToScore > 0 ? percentageOfNodesToScore : Math.max(5, 50 - nodes / 125);
    return Math.max(MIN_FEASIBLE_NODES, nodes * pct / 100);
  }

  /**
   * What every search of one session shares: where the next search starts, which task shapes found no node, and the
   * session's filters and scorers read once.
   */
  private static final class Scratch {
    final NoFitMemo noFit = new NoFitMemo();
    final SessionPlugins plugins;
    int nextStartNode;

    Scratch(Session session) {
      this.plugins = new SessionPlugins(session);
    }

    static Scratch of(Session session) {
      return session.scratch(Scratch.class, () -> new Scratch(session));
    }
  }

  public Result find(Session session, TaskInfo task) {
    return find(session, task, null);
  }

  /** The best node for {@code task} among {@code scope}'s nodes, or the whole cluster's when it is null. */
  public Result find(Session session, TaskInfo task, Scope scope) {
    return find(session, task, scope, true);
  }

  /**
   * The "no node fits" memo as it stands, for {@link #restore} once a trial that changed the session (evictions,
   * placements) has been discarded: the session is then as it was, and so are the answers.
   */
  public Checkpoint checkpoint(Session session) {
    index(session);
    return new Checkpoint(Scratch.of(session).noFit.save(session));
  }

  /** Puts back a {@link #checkpoint}; only right when the session's state is again what it was then. */
  public void restore(Session session, Checkpoint checkpoint) {
    index(session);
    Scratch.of(session).noFit.restore(session, checkpoint.saved);
  }

  /**
   * Whether {@code task} fits somewhere, for trial placements that only need the node: a failure carries no reason
   * (working out why every node refused is a second scan of the cluster).
   */
  public NodeInfo probe(Session session, TaskInfo task) {
    return find(session, task, null, false).node();
  }

  /** As {@link #probe(Session, TaskInfo)}, among {@code scope}'s nodes (the whole cluster when null). */
  public NodeInfo probe(Session session, TaskInfo task, Scope scope) {
    return find(session, task, scope, false).node();
  }

  /**
   * The first node (in cluster order, counting what is released) where {@code task} fits and passes the filters, or
   * null: for checks that only ask whether a set of pods would all find room, without scoring or moving the start of
   * the next search.
   */
  public NodeInfo anyFit(Session session, TaskInfo task, List<NodeInfo> nodes) {
    ResourceVector request = task.request();
    boolean[] skip = session.callbacks().deviceManagedResources();
    if (nodes == session.nodes()) {
      CapacityIndex index = index(session);
      int key = keySlot(index, request, skip);
      if (key == NO_NODE) {
        return null;
      }
      if (key != NO_KEY) {
        for (int p = index.next(key, request.get(key), 0); p >= 0; p = index.next(key, request.get(key), p + 1)) {
          NodeInfo node = nodes.get(p);
          if (node.firstShortOfFuture(request, skip) < 0 && session.callbacks().filter(task, node).ok()) {
            return node;
          }
        }
        return null;
      }
    }
    for (NodeInfo node : nodes) {
      if (node.firstShortOfFuture(request, skip) < 0 && session.callbacks().filter(task, node).ok()) {
        return node;
      }
    }
    return null;
  }

  private Result find(Session session, TaskInfo task, Scope scope, boolean explainFailure) {
    Scratch scratch = Scratch.of(session);
    index(session);
    List<NodeInfo> nodes = scope == null ? session.nodes() : scope.nodes();
    int n = nodes.size();
    if (n == 0) {
      return new Result(null, false, "0/0 nodes are available: no nodes in the cluster.");
    }
    ResourceVector request = task.request();
    boolean[] skip = session.callbacks().deviceManagedResources();
    ExplainRecorder explain = session.explain();
    boolean explaining = explain.enabled();
    NodeInfo nominated = task.reservation();
    if (nominated != null && (scope == null || scope.nodes().contains(nominated))) {
      if (nominated.firstShortOfFutureWithReservation(request) < 0 && session.callbacks().filter(task, nominated).ok()) {
        if (explaining) {
          explain.chosen(task, nominated);
        }
        return new Result(nominated, nominated.firstShortOfIdle(request, skip) >= 0, null);
      }
      session.dropReservation(task);
    }
    // The shape hashes the pod's labels and annotations: worked out only when the memo has answers to ask, or to
    // remember a failure (most searches of a cluster with room find a node and remember nothing).
    Object shape = explaining || scratch.noFit.isEmpty() ? null : shapeOf(task, scope);
    if (shape != null && scratch.noFit.knows(session, shape, task)) {
      return new Result(null, false, explainFailure ? scratch.noFit.reason(session, shape, task, scope) : null);
    }
    int toFind = feasibleNodesToFind(n);
    // Verdicts with scores when every scorer names a key; else verdicts alone, the scores asked on feasible nodes.
    EquivalenceKey key = explaining ? null : EquivalenceKey.of(scratch.plugins, task);
    EquivalenceCache.Table kept = key == null ? null : cache.of(session, key);
    Visits best = new Visits(session, task, skip, explaining ? explain : null, scratch.plugins, cache, key, kept);
    if (scope == null) {
      int start = scratch.nextStartNode % n;
      if (explaining) {
        scratch.nextStartNode = scanFrom(nodes, start, toFind, best);
      } else {
        // A tree knows each window's best per-node sum, not its feasible nodes, which normalizing scorers need.
        // Nor does it know what the residual filters would say.
        FeasibilityTree tree = kept != null && best.scoresKept && !key.hasResidual() && !best.normalizing()
            && kept.wantsTree() ? cache.tree(kept, n) : null;
        if (tree != null) {
          tree.refresh(session, best, best.groups());
          scratch.nextStartNode = tree.search(nodes, start, toFind, best);
        } else {
          scratch.nextStartNode = seek(session, start, toFind, best);
        }
      }
    } else {
      scanFrom(nodes, 0, toFind, best);
    }
    best.finish();
    NodeInfo bestNow = best.now;
    NodeInfo bestLater = best.later;
    if (bestNow != null || bestLater != null) {
      NodeInfo chosen = bestNow != null ? bestNow : bestLater;
      if (explaining) {
        explain.chosen(task, chosen);
      }
      return new Result(chosen, bestNow == null, null);
    }
    // Residual filters signed nothing, so their answers may move with other nodes' pods.
    boolean unsigned = !explaining && key.hasResidual();
    String reason = explainFailure ? scratch.noFit.diagnose(session, task, scope, unsigned) : null;
    if (!explaining) {
      scratch.noFit.remember(session, shape != null ? shape : shapeOf(task, scope), task, reason, unsigned);
    }
    return new Result(null, false, reason);
  }

  /**
   * {@code session}'s capacity index, up to date: made on the session's first search from the trees of the last index
   * this search used, where they still hold.
   */
  private CapacityIndex index(Session session) {
    CapacityIndex index = CapacityIndex.of(session, lastIndex);
    lastIndex = index;
    return index;
  }

  /** The "no node fits" memo's key for {@code task}: its shape, apart per scope. */
  private static Object shapeOf(TaskInfo task, Scope scope) {
    return scope == null ? TaskShape.of(task) : new ScopedShape(scope.name(), TaskShape.of(task));
  }

  /**
   * Visits {@code nodes} from {@code start}, wrapping around, until {@code toFind} feasible ones were seen; returns
   * the position after the last one visited (where the next search starts).
   */
  private static int scanFrom(List<NodeInfo> nodes, int start, int toFind, Visits best) {
    int n = nodes.size();
    int i = 0;
    for (; i < n && best.found < toFind; i++) {
      best.visit(nodes.get((start + i) % n));
    }
    return (start + i) % n;
  }

  /**
   * As {@link #scanFrom} over the session's nodes, visiting only those with enough free of the request's scarcest
   * resource: the ones skipped would fail the resource check, so the nodes found, their order and the next start are
   * the scan's.
   */
  private static int seek(Session session, int start, int toFind, Visits best) {
    CapacityIndex index = CapacityIndex.of(session);
    ResourceVector request = best.task.request();
    int key = keySlot(index, request, best.skip);
    if (key == NO_NODE) {
      return start;
    }
    if (key == NO_KEY) {
      return scanFrom(session.nodes(), start, toFind, best);
    }
    List<NodeInfo> nodes = session.nodes();
    long quantity = request.get(key);
    int end = nodes.size();
    int p = start;
    while (best.found < toFind) {
      p = index.next(key, quantity, p);
      if (p < 0 || p >= end) {
        if (end == start || start == 0) {
          return start;
        }
        end = start;
        p = index.next(key, quantity, 0);
        if (p < 0 || p >= end) {
          return start;
        }
      }
      best.visit(nodes.get(p), p, index);
      p++;
    }
    return p % nodes.size();
  }

  private static final int NO_NODE = -2;
  private static final int NO_KEY = -1;

  /**
   * The request's resource that rules out the most nodes (the largest share of the most any node has free), to seek
   * by; {@link #NO_NODE} when no node has enough of some resource, {@link #NO_KEY} when the index knows none of them.
   */
  private static int keySlot(CapacityIndex index, ResourceVector request, boolean[] skip) {
    int key = NO_KEY;
    double keyShare = -1;
    for (int slot : request.positiveSlots()) {
      if (!index.covers(slot) || (skip != null && slot < skip.length && skip[slot])) {
        continue;
      }
      long max = index.max(slot);
      if (request.get(slot) > max) {
        return NO_NODE;
      }
      double share = (double) request.get(slot) / max;
      if (share > keyShare) {
        keyShare = share;
        key = slot;
      }
    }
    return key;
  }

  /**
   * Why no node fits, counted per reason the way kube-scheduler reports it: a node's constraints (selector,
   * affinity, taints, cordon) are named before its free resources, so a GPU pod is not told that a CPU node "lacks
   * memory". Runs only when the search found nothing, so the fast path keeps its resource-first order.
   */
  static String diagnose(Session session, TaskInfo task, List<NodeInfo> nodes) {
    int[] shortOf = null;
    Map<String, Integer> reasons = null;
    for (NodeInfo node : nodes) {
      FilterResult verdict = session.callbacks().filter(task, node);
      if (!verdict.ok()) {
        if (reasons == null) {
          reasons = new TreeMap<>();
        }
        reasons.merge(verdict.reason(), 1, Integer::sum);
        continue;
      }
      int missing = node.firstShortOfFuture(task.request(), session.callbacks().deviceManagedResources());
      if (missing >= 0) {
        if (shortOf == null) {
          shortOf = new int[ResourceNames.count()];
        }
        shortOf[missing]++;
      }
    }
    return fitError(nodes.size(), shortOf, reasons);
  }

  /** kube-scheduler's wording: "0/8 nodes are available: 3 Insufficient nvidia.com/gpu, 5 node(s) ...". */
  static String fitError(int nodes, int[] shortOf, Map<String, Integer> reasons) {
    Map<String, Integer> all = new TreeMap<>();
    if (shortOf != null) {
      for (int r = 0; r < shortOf.length; r++) {
        if (shortOf[r] > 0) {
          all.put("Insufficient " + ResourceNames.name(r), shortOf[r]);
        }
      }
    }
    if (reasons != null) {
      reasons.forEach((k, v) -> all.merge(k, v, Integer::sum));
    }
    StringBuilder sb = new StringBuilder().append("0/").append(nodes).append(" nodes are available: ");
    boolean first = true;
    for (Map.Entry<String, Integer> e : all.entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(e.getValue()).append(' ').append(e.getKey());
    }
    return sb.append('.').toString();
  }
}
