package io.basalt.plugins.topologyspread;

import io.basalt.api.NodeInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of one topology key over the session's nodes: each node's value as a small number, so counts per value
 * are arrays and a node's count is two array reads. Worked out once per key and session.
 */
final class Domains {
  /** Per node position, the id of its value, or -1 when the node lacks the key. */
  private final int[] valueOf;
  private final int values;

  private Domains(int[] valueOf, int values) {
    this.valueOf = valueOf;
    this.values = values;
  }

  static Domains of(String key, List<NodeInfo> nodes) {
    int[] valueOf = new int[nodes.size()];
    Map<String, Integer> ids = new HashMap<>();
    for (int p = 0; p < valueOf.length; p++) {
      String v = nodes.get(p).node().labels().get(key);
      valueOf[p] = v == null ? -1 : ids.computeIfAbsent(v, x -> ids.size());
    }
    return new Domains(valueOf, ids.size());
  }

  /** The value id of the node at {@code position}, -1 when it lacks the key. */
  int valueOf(int position) {
    return valueOf[position];
  }

  /** How many distinct values the nodes carry. */
  int values() {
    return values;
  }
}
