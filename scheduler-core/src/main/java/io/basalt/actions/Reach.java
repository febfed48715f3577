package io.basalt.actions;

import io.basalt.api.NodeInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The nodes a victim plan may use: anywhere, or one network domain's ready nodes for a job that asks for a domain,
 * so the room preempt and reclaim make is room the job can actually be placed in.
 */
record Reach(NodeSearch.Scope scope, Set<NodeInfo> nodes) {
  static final Reach ANYWHERE = new Reach(null, null);

  static Reach of(String domain, List<NodeInfo> nodes) {
    Set<NodeInfo> set = Collections.newSetFromMap(new IdentityHashMap<>());
    set.addAll(nodes);
    return new Reach(new NodeSearch.Scope(domain, List.copyOf(nodes)), set);
  }

  boolean has(NodeInfo node) {
    return nodes == null || nodes.contains(node);
  }

  /** The domain's name, or null for anywhere. */
  String domain() {
    return scope == null ? null : scope.name();
  }

  static List<NodeInfo> resolve(io.basalt.session.Session session, List<String> names) {
    List<NodeInfo> out = new ArrayList<>(names.size());
    for (String n : names) {
      NodeInfo node = session.node(n);
      if (node != null) {
        out.add(node);
      }
    }
    return out;
  }
}
