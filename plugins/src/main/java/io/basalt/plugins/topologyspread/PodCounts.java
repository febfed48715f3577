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

  /** A placement or eviction told before any count was asked for, replayed when the first one is. */
  private record Change(Pod pod, String node, int delta) {}

  private final SessionView session;
  private final List<NodeInfo> nodes;
  private final Map<String, Domains> domains = new HashMap<>();
  private final Map<CountKey, Counts> counts = new HashMap<>();
  private final Map<Map.Entry<String, Eligibility>, boolean[]> eligibleNodes = new HashMap<>();
  /** The counts by namespace, so a placement visits only those that may count it. */
  private final Map<String, Listeners> byNamespace = new HashMap<>();
  /** Pods placed this session, per node position; null until a count is first asked for. */
  private List<Pod>[] placed;
  /** The pods of {@link #placed} by each of their labels, so a new count reads only those its selector may match. */
  private final Map<String, Map<String, List<Placed>>> placedByLabel = new HashMap<>();

  /** A pod this session placed, at its node's position. */
  private record Placed(Pod pod, int position) {}

  /**
   * One namespace's counts, each found from a pod's labels by a label value its selector requires (most selectors
   * require one), so a placement matches a pod against the counts that may count it, not against all of them.
   */
  private static final class Listeners {
    final List<Map.Entry<CountKey, Counts>> unindexed = new ArrayList<>();
    final Map<String, Map<String, List<Map.Entry<CountKey, Counts>>>> byLabel = new HashMap<>();

    void add(Map.Entry<CountKey, Counts> e) {
      Map.Entry<String, String> label = requiredLabel(e.getKey().matcher());
      if (label == null) {
        unindexed.add(e);
      } else {
        byLabel.computeIfAbsent(label.getKey(), k -> new HashMap<>())
            .computeIfAbsent(label.getValue(), v -> new ArrayList<>()).add(e);
      }
    }

    void move(Pod pod, int position, int delta) {
      move(unindexed, pod, position, delta);
      if (byLabel.isEmpty()) {
        return;
      }
      Map<String, String> labels = pod.labels();
      for (Map.Entry<String, Map<String, List<Map.Entry<CountKey, Counts>>>> e : byLabel.entrySet()) {
        String value = labels.get(e.getKey());
        List<Map.Entry<CountKey, Counts>> found = value == null ? null : e.getValue().get(value);
        if (found != null) {
          move(found, pod, position, delta);
        }
      }
    }

    private static void move(List<Map.Entry<CountKey, Counts>> entries, Pod pod, int position, int delta) {
      for (int i = 0, n = entries.size(); i < n; i++) {
        Map.Entry<CountKey, Counts> e = entries.get(i);
        if (e.getKey().matcher().counts(pod)) {
          e.getValue().move(position, delta);
        }
      }
    }
  }

  /** A label value every pod {@code matcher} counts carries, or null when there is none to index by. */
  private static Map.Entry<String, String> requiredLabel(PodMatcher matcher) {
    return matcher instanceof PodMatcher.Selector s && s.selector() != null ? s.selector().requiredLabel() : null;
  }
  /** Uids of pods present at open that this session evicted. */
  private final Set<String> evicted = new HashSet<>();
  /**
   * The changes told while no count exists: most sessions place no pod that spreads, and then keeping this log is all
   * the counting they pay for.
   */
  private List<Change> untallied = new ArrayList<>();

  PodCounts(SessionView session) {
    this.session = session;
    this.nodes = session.nodes();
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
    return positionOf(node.name());
  }

  private int positionOf(String name) {
    NodeInfo node = name == null ? null : session.node(name);
    if (node == null) {
      return -1;
    }
    int p = node.position();
    return p < nodes.size() && nodes.get(p) == node ? p : nodes.indexOf(node);
  }

  Domains domains(String key) {
    return domains.computeIfAbsent(key, k -> Domains.of(k, nodes));
  }

  /** The counts for {@code key}, counted over the session's pods the first time they are asked for. */
  @SuppressWarnings("unchecked")
  Counts counts(CountKey key) {
    if (placed == null) {
      placed = new List[nodes.size()];
      List<Change> log = untallied;
      untallied = null;
      for (Change ch : log) {
        change(ch.pod(), ch.node(), ch.delta());
      }
    }
    Counts c = counts.get(key);
    if (c == null) {
      c = count(key);
      counts.put(key, c);
      byNamespace.computeIfAbsent(key.namespace(), n -> new Listeners()).add(Map.entry(key, c));
    }
    return c;
  }

  private Counts count(CountKey key) {
    boolean[] eligible = eligible(key.key(), key.eligibility());
    int[] initial = new int[nodes.size()];
    List<Pod> candidates = key.matcher() instanceof PodMatcher.Selector s
        ? session.assignedPods().candidates(s.selector()) : null;
    if (candidates != null) {
      for (Pod pod : candidates) {
        int p = positionOf(pod.nodeName());
        if (p >= 0 && eligible[p] && counted(pod, key) && !evicted.contains(pod.uid())) {
          initial[p]++;
        }
      }
    }
    Map.Entry<String, String> label = requiredLabel(key.matcher());
    for (int p = 0; p < eligible.length; p++) {
      if (!eligible[p]) {
        continue;
      }
      if (candidates == null) {
        for (Pod pod : session.podsOn(nodes.get(p))) {
          if (counted(pod, key) && !evicted.contains(pod.uid())) {
            initial[p]++;
          }
        }
      }
      if (label == null && placed[p] != null) {
        for (Pod pod : placed[p]) {
          if (counted(pod, key)) {
            initial[p]++;
          }
        }
      }
    }
    if (label != null) {
      Map<String, List<Placed>> values = placedByLabel.get(label.getKey());
      List<Placed> found = values == null ? null : values.get(label.getValue());
      if (found != null) {
        for (Placed at : found) {
          if (eligible[at.position()] && counted(at.pod(), key)) {
            initial[at.position()]++;
          }
        }
      }
    }
    return new Counts(domains(key.key()), eligible, initial);
  }

  /** The nodes that carry {@code key} and that {@code eligibility} admits, by position; shared, never written. */
  private boolean[] eligible(String key, Eligibility eligibility) {
    return eligibleNodes.computeIfAbsent(Map.entry(key, eligibility), k -> {
      Domains d = domains(key);
      boolean[] eligible = new boolean[nodes.size()];
      for (int p = 0; p < eligible.length; p++) {
        eligible[p] = d.valueOf(p) >= 0 && eligibility.admits(nodes.get(p).node());
      }
      return eligible;
    });
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
    if (untallied != null) {
      untallied.add(new Change(task.pod(), task.nodeName(), delta));
      return;
    }
    change(task.pod(), task.nodeName(), delta);
  }

  private void change(Pod pod, String node, int delta) {
    int p = positionOf(node);
    if (p < 0) {
      return;
    }
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
      for (Map.Entry<String, String> label : pod.labels().entrySet()) {
        placedByLabel.computeIfAbsent(label.getKey(), k -> new HashMap<>())
            .computeIfAbsent(label.getValue(), v -> new ArrayList<>()).add(new Placed(pod, p));
      }
    } else if (placed[p] == null || !placed[p].remove(pod)) {
      return;
    } else {
      for (Map.Entry<String, String> label : pod.labels().entrySet()) {
        placedByLabel.get(label.getKey()).get(label.getValue()).remove(new Placed(pod, p));
      }
    }
    if (pod.terminating()) {
      return;
    }
    Listeners mine = byNamespace.get(pod.namespace());
    if (mine != null) {
      mine.move(pod, p, delta);
    }
  }
}
