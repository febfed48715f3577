package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.model.Toleration;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why each of the session's nodes refuses one kind of pod, kept current from the nodes that changed since it was
 * last read: the "0/N nodes are available" message of a pod that fits nowhere costs a pass over every node once per
 * kind of pod and session, then a visit per changed node, instead of a pass per failure.
 *
 * <p>A kind is what node filters may look at ({@link Key}): filters read a pod's request, namespace, selectors,
 * tolerations and annotations, never its labels nor its gang's name, so the members of every gang of one request
 * share one diagnosis.
 */
final class Diagnosis {
  /** What filters see of a pod; the group-name annotation is left out (no filter reads it). */
  record Key(String namespace, ResourceVector request, Map<String, String> nodeSelector,
      List<NodeSelectorTerm> affinity, List<Toleration> tolerations, Map<String, String> annotations,
      PodConstraints constraints) {
    /** The key of {@code task}'s kind; kept by its {@link TaskShape}, so worked out once per shape. */
    static Key of(TaskInfo task) {
      return TaskShape.of(task).diagnosisKey();
    }

    static Key of(Pod p) {
      Map<String, String> annotations = p.annotations();
      if (annotations.containsKey(Pod.GROUP_NAME_ANNOTATION)) {
        annotations = new HashMap<>(annotations);
        annotations.remove(Pod.GROUP_NAME_ANNOTATION);
      }
      return new Key(p.namespace(), p.request(), p.nodeSelector(), p.requiredNodeAffinity(), p.tolerations(),
          annotations, p.constraints());
    }
  }

  /** Per node: 0 when nothing is missing, r + 1 when short of resource r, -(k + 1) when refused for reasons[k]. */
  private final int[] verdicts;
  private final List<String> reasons = new ArrayList<>();
  private final Map<String, Integer> reasonCodes = new HashMap<>();
  private int[] shortCounts = new int[0];
  private int[] reasonCounts = new int[0];
  /** The index's change count this diagnosis reflects. */
  private int seen;

  private Diagnosis(int nodes) {
    this.verdicts = new int[nodes];
  }

  /** A diagnosis of {@code task}'s kind over every node of {@code session}, as they are now. */
  static Diagnosis of(Session session, TaskInfo task) {
    List<NodeInfo> nodes = session.nodes();
    Diagnosis d = new Diagnosis(nodes.size());
    for (int p = 0; p < nodes.size(); p++) {
      d.count(d.verdicts[p] = d.verdict(session, task, nodes.get(p)), 1);
    }
    d.seen = CapacityIndex.of(session).changes();
    return d;
  }

  /** The message for {@code task} (of this diagnosis' kind) after reading the nodes changed since the last call. */
  String message(Session session, TaskInfo task) {
    CapacityIndex index = CapacityIndex.of(session);
    int changes = index.changes();
    if (changes - seen > verdicts.length) {
      Arrays.fill(shortCounts, 0);
      Arrays.fill(reasonCounts, 0);
      for (int p = 0; p < verdicts.length; p++) {
        count(verdicts[p] = verdict(session, task, index.node(p)), 1);
      }
    } else {
      for (int i = seen; i < changes; i++) {
        int p = index.changedAt(i);
        count(verdicts[p], -1);
        count(verdicts[p] = verdict(session, task, index.node(p)), 1);
      }
    }
    seen = changes;
    Map<String, Integer> refused = null;
    for (int k = 0; k < reasonCounts.length; k++) {
      if (reasonCounts[k] > 0) {
        if (refused == null) {
          refused = new TreeMap<>();
        }
        refused.put(reasons.get(k), reasonCounts[k]);
      }
    }
    return NodeSearch.fitError(verdicts.length, shortCounts, refused);
  }

  /** As {@link NodeSearch}'s full diagnosis: a node's constraints are named before its free resources. */
  private int verdict(Session session, TaskInfo task, NodeInfo node) {
    FilterResult verdict = session.callbacks().filter(task, node);
    if (!verdict.ok()) {
      Integer code = reasonCodes.get(verdict.reason());
      if (code == null) {
        code = reasons.size();
        reasons.add(verdict.reason());
        reasonCodes.put(verdict.reason(), code);
      }
      return -(code + 1);
    }
    return node.firstShortOfFuture(task.request(), session.callbacks().deviceManagedResources()) + 1;
  }

  private void count(int verdict, int delta) {
    if (verdict > 0) {
      if (verdict > shortCounts.length) {
        shortCounts = Arrays.copyOf(shortCounts, Math.max(verdict, ResourceNames.count()));
      }
      shortCounts[verdict - 1] += delta;
    } else if (verdict < 0) {
      int k = -verdict - 1;
      if (k >= reasonCounts.length) {
        reasonCounts = Arrays.copyOf(reasonCounts, Math.max(k + 1, 2 * reasonCounts.length));
      }
      reasonCounts[k] += delta;
    }
  }
}
