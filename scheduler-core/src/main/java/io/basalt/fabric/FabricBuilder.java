package io.basalt.fabric;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks domain specs and builds the {@link Fabric} tree, validate-style: every problem becomes one line naming the
 * domain (and what is wrong) and the offending part is left out; nothing throws, because scheduling must go on when
 * the topology is wrong. Deterministic: specs are taken in tier order, then by name, so "the later domain" is the one
 * whose name sorts later.
 *
 * <p>Rules, in the order applied:
 * <ol>
 *   <li>a blank name, a negative tier or a second spec of the same name: reported, that spec ignored;
 *   <li>a member naming nothing (no such domain, or a node not in the cluster when the cluster is known): reported,
 *       that member dropped;
 *   <li>domains on a cycle of child links: reported once per cycle, all of them ignored;
 *   <li>a child whose tier is equal to or higher than its parent's: reported, the parent ignored;
 *   <li>a child already inside another domain, or a node already in another domain of the same tier (directly or
 *       through a child), or a node directly in a narrower domain outside this one: reported, the later domain
 *       ignored;
 *   <li>a tier name used for two tiers: reported, the lower tier keeps it.
 * </ol>
 * Links to an ignored domain are dropped silently (its own problem was reported). An empty domain (no nodes below it,
 * e.g. a selector that matched nothing) is kept, since it does no harm, and reported, since it is usually a mistake.
 */
public final class FabricBuilder {
  private FabricBuilder() {}

  /** The fabric built and one line per problem found, in the order found. */
  public record Result(Fabric fabric, List<String> problems) {
    public Result {
      problems = List.copyOf(problems);
    }
  }

  /** Builds with problems starting {@code domain <name>:}, every node ready; see the method below. */
  public static Result build(List<DomainSpec> specs, Collection<String> clusterNodes) {
    return build("domain", specs, clusterNodes, List.of());
  }

  /**
   * @param kind what the source calls a domain, starting each problem ({@code HyperNode s0: ...})
   * @param specs the domains as the source states them
   * @param clusterNodes the cluster's node names; null to accept every node name a spec gives
   * @param unready nodes that take no new pods (see {@link Fabric#unready})
   */
  public static Result build(String kind, List<DomainSpec> specs, Collection<String> clusterNodes,
      Collection<String> unready) {
    return new Check(kind, clusterNodes).run(specs, unready);
  }

  private static final class Check {
    final String kind;
    final Set<String> cluster;
    final List<String> problems = new ArrayList<>();
    final Map<String, DomainSpec> specs = new TreeMap<>();

    Check(String kind, Collection<String> clusterNodes) {
      this.kind = kind;
      this.cluster = clusterNodes == null ? null : new HashSet<>(clusterNodes);
    }

    void problem(String domain, String text) {
      problems.add(kind + " " + domain + ": " + text);
    }

    Result run(List<DomainSpec> in, Collection<String> unready) {
      for (DomainSpec s : in) {
        if (s.name() == null || s.name().isBlank()) {
          problems.add(kind + " without a name (tier " + s.tier() + "): ignored");
        } else if (specs.containsKey(s.name())) {
          problem(s.name(), "defined twice, the second ignored");
        } else if (s.tier() < 0) {
          problem(s.name(), "tier " + s.tier() + " is negative, ignored");
        } else if (Fabric.ROOT.equals(s.name())) {
          problem(s.name(), "'" + Fabric.ROOT + "' is the root's name, ignored");
        } else {
          specs.put(s.name(), s);
        }
      }
      Map<String, DomainSpec> named = new TreeMap<>(specs);
      specs.replaceAll((n, s) -> dropUnknownMembers(s, named));
      dropCycles();
      dropTierInversions();
      Map<String, Domain> accepted = nest();
      Map<String, Integer> tierNames = tierNames(accepted);
      List<String> nodes = cluster == null ? List.of() : List.copyOf(cluster);
      Fabric fabric = new Fabric(accepted, nodes, new HashSet<>(unready), tierNames);
      for (String d : accepted.keySet().stream().sorted().toList()) {
        if (fabric.nodesOf(d).isEmpty()) {
          problem(d, "has no nodes");
        }
      }
      return new Result(fabric, problems);
    }

    DomainSpec dropUnknownMembers(DomainSpec s, Map<String, DomainSpec> named) {
      List<String> children = new ArrayList<>();
      for (String c : new LinkedHashSet<>(s.children())) {
        if (c.equals(s.name())) {
          problem(s.name(), "holds itself, the member dropped");
        } else if (!named.containsKey(c)) {
          problem(s.name(), "no " + kind + " '" + c + "', the member dropped");
        } else {
          children.add(c);
        }
      }
      List<String> nodes = new ArrayList<>();
      for (String n : new LinkedHashSet<>(s.nodes())) {
        if (cluster != null && !cluster.contains(n)) {
          problem(s.name(), "no node '" + n + "', the member dropped");
        } else {
          nodes.add(n);
        }
      }
      return new DomainSpec(s.name(), s.tier(), s.tierName(), children, nodes);
    }

    /** Tarjan-free: repeated depth-first search, each cycle found reported and its domains removed. */
    void dropCycles() {
      Set<String> done = new HashSet<>();
      for (String start : List.copyOf(specs.keySet())) {
        if (!specs.containsKey(start) || done.contains(start)) {
          continue;
        }
        Deque<String> stack = new ArrayDeque<>();
        List<String> cycle = findCycle(start, stack, new HashSet<>(), done);
        if (cycle != null) {
          problem(cycle.get(0), "cycle " + String.join(" -> ", cycle) + " -> " + cycle.get(0) + ", all "
              + cycle.size() + " ignored");
          cycle.forEach(specs::remove);
          done.clear(); // a removed domain may have been the only way into another cycle; look again
        }
      }
    }

    private List<String> findCycle(String at, Deque<String> path, Set<String> onPath, Set<String> done) {
      if (onPath.contains(at)) {
        List<String> cycle = new ArrayList<>();
        boolean in = false;
        for (String p : (Iterable<String>) path::descendingIterator) {
          in |= p.equals(at);
          if (in) {
            cycle.add(p);
          }
        }
        return cycle;
      }
      DomainSpec s = specs.get(at);
      if (s == null || done.contains(at)) {
        return null;
      }
      path.push(at);
      onPath.add(at);
      for (String c : s.children()) {
        List<String> cycle = findCycle(c, path, onPath, done);
        if (cycle != null) {
          return cycle;
        }
      }
      path.pop();
      onPath.remove(at);
      done.add(at);
      return null;
    }

    void dropTierInversions() {
      for (DomainSpec s : List.copyOf(specs.values())) {
        for (String c : s.children()) {
          DomainSpec child = specs.get(c);
          if (child != null && child.tier() >= s.tier()) {
            problem(s.name(), "child '" + c + "' has tier " + child.tier() + ", not below this one's " + s.tier()
                + ", ignored");
            specs.remove(s.name());
            break;
          }
        }
      }
    }

    /** Accepts domains narrowest tier first, then by name, refusing any that would break the tree. */
    Map<String, Domain> nest() {
      List<DomainSpec> order = new ArrayList<>(specs.values());
      order.sort(Comparator.comparingInt(DomainSpec::tier).thenComparing(DomainSpec::name));
      Map<String, Domain> accepted = new LinkedHashMap<>();
      Map<String, Set<String>> below = new HashMap<>();
      Map<String, String> parentOf = new HashMap<>();
      Map<String, String> leafOf = new HashMap<>(); // node -> the domain holding it directly
      Map<Integer, Map<String, String>> claimed = new HashMap<>(); // tier -> node -> domain of that tier
      for (DomainSpec s : order) {
        List<String> children = s.children().stream().filter(accepted::containsKey).sorted().toList();
        String refusal = null;
        for (String c : children) {
          if (parentOf.containsKey(c)) {
            refusal = "child '" + c + "' is already in " + kind + " '" + parentOf.get(c) + "'";
            break;
          }
        }
        Set<String> all = new HashSet<>();
        children.forEach(c -> all.addAll(below.get(c)));
        Map<String, String> sameTier = claimed.computeIfAbsent(s.tier(), t -> new HashMap<>());
        for (String n : s.nodes()) {
          String leaf = leafOf.get(n);
          if (refusal != null) {
            break;
          } else if (sameTier.containsKey(n)) {
            refusal = "node '" + n + "' is already in " + kind + " '" + sameTier.get(n) + "' of tier " + s.tier();
          } else if (leaf != null && !all.contains(n)) { // in a narrower domain that is not a child of this one
            refusal = "node '" + n + "' is already in " + kind + " '" + leaf + "' (tier " + accepted.get(leaf).tier()
                + "), which is not inside this one";
          }
        }
        for (String n : all) {
          if (refusal == null && sameTier.containsKey(n)) {
            refusal = "node '" + n + "' is already in " + kind + " '" + sameTier.get(n) + "' of tier " + s.tier();
          }
        }
        if (refusal != null) {
          problem(s.name(), refusal + ", ignored");
          continue;
        }
        List<String> own = s.nodes().stream().filter(n -> !all.contains(n)).sorted().toList();
        all.addAll(own);
        own.forEach(n -> leafOf.put(n, s.name()));
        all.forEach(n -> sameTier.put(n, s.name()));
        children.forEach(c -> parentOf.put(c, s.name()));
        below.put(s.name(), all);
        accepted.put(s.name(), new Domain(s.name(), s.tier(), s.tierName(), children, own));
      }
      return accepted;
    }

    Map<String, Integer> tierNames(Map<String, Domain> accepted) {
      Map<String, Integer> out = new HashMap<>();
      Set<String> reported = new HashSet<>();
      for (Domain d : accepted.values()) { // tier order: the lower tier claims a name first
        if (d.tierName() == null || d.tierName().isEmpty()) {
          continue;
        }
        Integer first = out.putIfAbsent(d.tierName(), d.tier());
        if (first != null && first != d.tier() && reported.add(d.tierName() + " " + d.tier())) {
          problem(d.name(), "tier name '" + d.tierName() + "' already names tier " + first + ", not " + d.tier());
        }
      }
      return out;
    }
  }
}
