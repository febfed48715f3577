package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.search.NodeSearch;
import io.basalt.session.Session;
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

  /** The nodes a search may visit: the domain's, or the whole cluster's. */
  List<NodeInfo> nodes(Session session) {
    return scope == null ? session.nodes() : scope.nodes();
  }

  /**
   * Where a job may get room, tier by tier: anywhere for a job that asks for no domain; else each domain of its
   * tiers, lowest first (see {@link DomainPlacer#evictionDomains}).
   */
  static List<List<Reach>> forJob(Session session, JobInfo job, TaskInfo first) {
    if (!DomainPlacer.applies(session, job)) {
      return List.of(List.of(ANYWHERE));
    }
    List<List<Reach>> out = new ArrayList<>();
    for (List<String> tier : DomainPlacer.evictionDomains(session, job, first)) {
      List<Reach> reaches = new ArrayList<>(tier.size());
      for (String d : tier) {
        reaches.add(d == null ? ANYWHERE : of(d, resolve(session, session.fabric().readyNodes(d))));
      }
      out.add(reaches);
    }
    return out;
  }

  private static List<NodeInfo> resolve(Session session, List<String> names) {
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
