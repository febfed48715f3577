package io.basalt.plugins.podaffinity;

import io.basalt.api.NodeInfo;
import java.util.Arrays;
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
    // Each value's positions grow in one array, its first slot the count: most keys (the hostname) give one node each.
    Map<String, int[]> out = new HashMap<>();
    for (int p = 0; p < nodes.size(); p++) {
      String value = nodes.get(p).node().labels().get(key);
      if (value == null) {
        continue;
      }
      int[] at = out.get(value);
      if (at == null) {
        out.put(value, new int[] {1, p});
      } else {
        if (at[0] + 1 == at.length) {
          at = Arrays.copyOf(at, at.length * 2);
          out.put(value, at);
        }
        at[++at[0]] = p;
      }
    }
    out.replaceAll((v, at) -> Arrays.copyOfRange(at, 1, at[0] + 1));
    return out;
  }
}
