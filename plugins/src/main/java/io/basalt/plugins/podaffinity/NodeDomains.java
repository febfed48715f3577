package io.basalt.plugins.podaffinity;

import io.basalt.api.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's node positions by topology pair (a label key and one of its values), worked out once per key: a check
 * that refuses whole domains marks their nodes once per pod instead of reading each visited node's label and count.
 */
final class NodeDomains {
  private static final int[] NONE = new int[0];
  private final List<NodeInfo> nodes;
  private final Map<String, Map<String, int[]>> byKey = new HashMap<>();

  NodeDomains(List<NodeInfo> nodes) {
    this.nodes = nodes;
  }

  int size() {
    return nodes.size();
  }

  /** The position of {@code node} in the session's list, or -1 when it is not the session's copy there. */
  int position(NodeInfo node) {
    int p = node.position();
    return p >= 0 && p < nodes.size() && nodes.get(p) == node ? p : -1;
  }

  /** The positions of the nodes labelled {@code key}={@code value}. */
  int[] positions(String key, String value) {
    int[] found = byKey.computeIfAbsent(key, this::index).get(value);
    return found == null ? NONE : found;
  }

  private Map<String, int[]> index(String key) {
    Map<String, List<Integer>> lists = new HashMap<>();
    for (int p = 0; p < nodes.size(); p++) {
      String value = nodes.get(p).node().labels().get(key);
      if (value != null) {
        lists.computeIfAbsent(value, v -> new ArrayList<>()).add(p);
      }
    }
    Map<String, int[]> out = new HashMap<>();
    lists.forEach((v, ps) -> out.put(v, ps.stream().mapToInt(Integer::intValue).toArray()));
    return out;
  }
}
