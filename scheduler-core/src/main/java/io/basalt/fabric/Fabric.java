package io.basalt.fabric;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster's network fabric as a tree of {@link Domain}s over node names: tier 1 domains (a MetaX dragonfly) inside
 * wider ones (a switchbox), under a virtual {@link #ROOT} that holds the whole cluster. Placement asks "which domain of
 * tier t holds this node" and "which nodes are below this domain" for every node of every cycle, so both are
 * precomputed maps, never walks. Immutable; built only by {@link FabricBuilder}, which guarantees a tree (every node
 * and domain has at most one parent, child tiers are lower than their parent's).
 */
public final class Fabric {
  /** The virtual root's name: a slash, which no Kubernetes object name can be. */
  public static final String ROOT = "/";

  /** No domains: every node is directly under the root. */
  public static final Fabric EMPTY = new Fabric(Map.of(), List.of(), Set.of(), Map.of());

  private final Map<String, Domain> domains;
  private final Map<String, String> parents = new HashMap<>();
  private final Map<String, List<String>> below = new HashMap<>();
  private final Map<String, List<String>> readyBelow;
  private final int[] tiers;
  private final Map<Integer, List<String>> byTier = new HashMap<>();
  /** Per node, the domain of each tier (index as in {@link #tiers}), null where none. */
  private final Map<String, String[]> nodeDomains = new HashMap<>();
  private final Map<String, Integer> tierNames;
  private final Set<String> unready;

  /**
   * @param domains the checked domains by name (a tree), root excluded
   * @param clusterNodes every node of the cluster (the root holds these and every node of a domain)
   * @param unready nodes that take no new pods
   * @param tierNames tier of each tier name
   */
  Fabric(Map<String, Domain> domains, Collection<String> clusterNodes, Set<String> unready,
      Map<String, Integer> tierNames) {
    this.unready = Set.copyOf(unready);
    this.tierNames = Map.copyOf(tierNames);
    this.tiers = domains.values().stream().mapToInt(Domain::tier).distinct().sorted().toArray();
    Map<String, Domain> all = new HashMap<>(domains);
    for (Domain d : domains.values()) {
      d.children().forEach(c -> parents.put(c, d.name()));
      byTier.computeIfAbsent(d.tier(), t -> new ArrayList<>()).add(d.name());
    }
    byTier.replaceAll((t, names) -> names.stream().sorted().toList());
    TreeSet<String> everyNode = new TreeSet<>(clusterNodes);
    TreeSet<String> inDomain = new TreeSet<>();
    for (Domain d : domains.values()) {
      List<String> nodes = nodesBelow(d, domains);
      inDomain.addAll(nodes);
      int ti = Arrays.binarySearch(tiers, d.tier());
      for (String n : nodes) {
        nodeDomains.computeIfAbsent(n, x -> new String[tiers.length])[ti] = d.name();
      }
    }
    everyNode.addAll(inDomain);
    List<String> top = domains.keySet().stream().filter(n -> !parents.containsKey(n)).sorted().toList();
    List<String> loose = everyNode.stream().filter(n -> !inDomain.contains(n)).toList();
    int rootTier = tiers.length == 0 ? 1 : tiers[tiers.length - 1] + 1;
    all.put(ROOT, new Domain(ROOT, rootTier, null, top, loose));
    top.forEach(t -> parents.put(t, ROOT));
    below.put(ROOT, List.copyOf(everyNode));
    this.domains = Map.copyOf(all);
    if (this.unready.isEmpty()) {
      readyBelow = below;
    } else {
      readyBelow = new HashMap<>();
      below.forEach((d, nodes) -> readyBelow.put(d, nodes.stream().filter(n -> !this.unready.contains(n)).toList()));
    }
  }

  private List<String> nodesBelow(Domain d, Map<String, Domain> domains) {
    List<String> known = below.get(d.name());
    if (known != null) {
      return known;
    }
    TreeSet<String> nodes = new TreeSet<>(d.nodes());
    for (String c : d.children()) {
      nodes.addAll(nodesBelow(domains.get(c), domains));
    }
    List<String> out = List.copyOf(nodes);
    below.put(d.name(), out);
    return out;
  }

  /** True when the fabric has no domains (no topology source, or all of it was wrong). */
  public boolean isEmpty() {
    return tiers.length == 0;
  }

  /** The tiers that have domains, ascending (closest first); the root's tier is not among them. */
  public int[] tiers() {
    return tiers.clone();
  }

  /** The names of the domains of {@code tier}, sorted; empty for a tier without domains. */
  public List<String> domains(int tier) {
    return byTier.getOrDefault(tier, List.of());
  }

  /** The domain called {@code name} ({@link #ROOT} included), or null. */
  public Domain domain(String name) {
    return domains.get(name);
  }

  /** The domain directly above {@code domain}: {@link #ROOT} for a top-level one; null for the root or an unknown. */
  public String parent(String domain) {
    return parents.get(domain);
  }

  /** The domains directly inside {@code domain}, sorted; empty for an unknown name. */
  public List<String> children(String domain) {
    Domain d = domains.get(domain);
    return d == null ? List.of() : d.children();
  }

  /** The domain of {@code tier} holding {@code node}, or null (no such tier, or the node is outside every one). */
  public String domainOf(String node, int tier) {
    String[] ds = nodeDomains.get(node);
    int ti = Arrays.binarySearch(tiers, tier);
    return ds == null || ti < 0 ? null : ds[ti];
  }

  /** Every node below {@code domain} (through children too), sorted; {@code nodesOf(ROOT)} is the whole cluster. */
  public List<String> nodesOf(String domain) {
    return below.getOrDefault(domain, List.of());
  }

  /** {@link #nodesOf} without the {@link #unready} nodes: where new pods may go. */
  public List<String> readyNodes(String domain) {
    return readyBelow.getOrDefault(domain, List.of());
  }

  /** True for a node its source reports as not ready (MetaX {@code status != Ready}): it takes no new pods. */
  public boolean unready(String node) {
    return unready.contains(node);
  }

  /**
   * The node's domains widest first, joined by {@code /}, root omitted: {@code switchbox-1/dragonfly-12}; empty when
   * the node is in no domain. For explanations and logs.
   */
  public String path(String node) {
    String[] ds = nodeDomains.get(node);
    if (ds == null) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (int i = ds.length - 1; i >= 0; i--) {
      if (ds[i] != null) {
        b.append(b.length() == 0 ? "" : "/").append(ds[i]);
      }
    }
    return b.toString();
  }

  /** The tier a source calls {@code tierName} (Volcano's {@code highestTierName}), or empty when none is. */
  public OptionalInt tierOf(String tierName) {
    Integer t = tierName == null ? null : tierNames.get(tierName);
    return t == null ? OptionalInt.empty() : OptionalInt.of(t);
  }

  @Override
  public String toString() {
    Map<Integer, Integer> counts = new TreeMap<>();
    byTier.forEach((t, names) -> counts.put(t, names.size()));
    return "Fabric[domains per tier=" + counts + ", nodes=" + nodesOf(ROOT).size() + ", unready=" + unready.size()
        + "]";
  }
}
