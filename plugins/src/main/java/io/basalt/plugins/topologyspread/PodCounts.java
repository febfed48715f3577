package io.basalt.plugins.topologyspread;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.SessionView;
import io.basalt.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One session's pods as topology spread counts them: every scheduler's pods on each node when the session opened,
 * plus what this session placed, less what it evicted (as {@link AllocationListener}: an undone placement or eviction
 * is told too, so a discarded gang leaves nothing). Counts per constraint ({@link Counts}) are worked out the first
 * time a pod asks for them and moved by one on each later placement or eviction, never counted again.
 */
final class PodCounts implements AllocationListener {
  /** What one {@link Counts} counts: pods of {@code namespace} matching {@code matcher}, per value of {@code key}. */
  record CountKey(String namespace, PodMatcher matcher, String key, Eligibility eligibility) {}

  private final SessionView session;
  private final List<NodeInfo> nodes;
  private final Map<String, Integer> positions = new HashMap<>();
  private final Map<String, Domains> domains = new HashMap<>();
  private final Map<CountKey, Counts> counts = new HashMap<>();
  /** The counts by namespace, so a placement visits only those that may count it. */
  private final Map<String, List<Map.Entry<CountKey, Counts>>> byNamespace = new HashMap<>();
  /** Pods placed this session, per node position. */
  private final List<Pod>[] placed;
  /** Uids of pods present at open that this session evicted. */
  private final Set<String> evicted = new HashSet<>();

  @SuppressWarnings("unchecked")
  PodCounts(SessionView session) {
    this.session = session;
    this.nodes = session.nodes();
    this.placed = new List[nodes.size()];
    for (int p = 0; p < nodes.size(); p++) {
      positions.put(nodes.get(p).name(), p);
    }
  }

  List<NodeInfo> nodes() {
    return nodes;
  }

  /** The position of {@code node} in the session's node list. */
  int position(NodeInfo node) {
    int p = node.position();
    if (p < nodes.size() && nodes.get(p) == node) {
      return p;
    }
    Integer named = positions.get(node.name());
    return named == null ? -1 : named;
  }

  Domains domains(String key) {
    return domains.computeIfAbsent(key, k -> Domains.of(k, nodes));
  }

  /** The counts for {@code key}, counted over the session's pods the first time they are asked for. */
  Counts counts(CountKey key) {
    Counts c = counts.get(key);
    if (c == null) {
      c = count(key);
      counts.put(key, c);
      byNamespace.computeIfAbsent(key.namespace(), n -> new ArrayList<>()).add(Map.entry(key, c));
    }
    return c;
  }

  private Counts count(CountKey key) {
    Domains d = domains(key.key());
    boolean[] eligible = new boolean[nodes.size()];
    int[] initial = new int[nodes.size()];
    for (int p = 0; p < eligible.length; p++) {
      NodeInfo node = nodes.get(p);
      if (d.valueOf(p) < 0 || !key.eligibility().admits(node.node())) {
        continue;
      }
      eligible[p] = true;
      int n = 0;
      for (Pod pod : session.podsOn(node)) {
        if (counted(pod, key) && !evicted.contains(pod.uid())) {
          n++;
        }
      }
      if (placed[p] != null) {
        for (Pod pod : placed[p]) {
          if (counted(pod, key)) {
            n++;
          }
        }
      }
      initial[p] = n;
    }
    return new Counts(d, eligible, initial);
  }

  /** kube-scheduler skips terminating pods and other namespaces' pods. */
  private static boolean counted(Pod pod, CountKey key) {
    return !pod.terminating() && key.namespace().equals(pod.namespace()) && key.matcher().counts(pod);
  }

  @Override
  public void onAllocate(TaskInfo task) {
    change(task, 1);
  }

  @Override
  public void onDeallocate(TaskInfo task) {
    change(task, -1);
  }

  /**
   * A placement ({@code delta} 1) or its undo (-1); for a pod that was on its node at open (it has a node name), an
   * eviction's undo (1) or the eviction (-1).
   */
  private void change(TaskInfo task, int delta) {
    Integer at = task.nodeName() == null ? null : positions.get(task.nodeName());
    if (at == null) {
      return;
    }
    int p = at;
    Pod pod = task.pod();
    if (pod.isAssigned()) {
      boolean wasEvicted = evicted.contains(pod.uid());
      if (delta < 0 ? wasEvicted : !wasEvicted) {
        return;
      }
      if (delta < 0) {
        evicted.add(pod.uid());
      } else {
        evicted.remove(pod.uid());
      }
    } else if (delta > 0) {
      if (placed[p] == null) {
        placed[p] = new ArrayList<>(2);
      }
      placed[p].add(pod);
    } else if (placed[p] == null || !placed[p].remove(pod)) {
      return;
    }
    if (pod.terminating()) {
      return;
    }
    List<Map.Entry<CountKey, Counts>> mine = byNamespace.get(pod.namespace());
    if (mine == null) {
      return;
    }
    for (int i = 0, n = mine.size(); i < n; i++) {
      Map.Entry<CountKey, Counts> e = mine.get(i);
      if (e.getKey().matcher().counts(pod)) {
        e.getValue().move(p, delta);
      }
    }
  }
}
