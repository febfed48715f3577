package io.basalt.kube.fabric;

import io.basalt.fabric.DomainSpec;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Node labels to a {@link io.basalt.fabric.Fabric}, as Kueue's Topology and KAI's topology take them: label keys given
 * widest first ({@code topology.example.com/block,topology.example.com/rack}); the last key is tier 1, the first the
 * widest tier, and each key is its tier's name. Nodes with the same values for a key and every wider key share a
 * domain.
 *
 * <p>A domain is named by its label value when no other domain (of any tier) has that value; otherwise by its parent's
 * name, a slash and its value ({@code block-a/rack-1} when {@code rack-1} is also under {@code block-b}), which is
 * unique because label values hold no slash. A node without a key's label (or with an empty value) is left out of that
 * tier only: its narrower domain hangs from its nearest wider one. That is reported once per key, naming how many nodes
 * and the first few, never once per node.
 */
public final class LabelTopologyReader {
  private static final int EXAMPLES = 3;

  private LabelTopologyReader() {}

  /** Builds the fabric of {@code nodes} from the labels {@code keys}, widest first. */
  public static FabricBuilder.Result read(List<String> keys, List<Node> nodes) {
    List<String> problems = new ArrayList<>();
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
    if (distinct.size() != keys.size()) {
      problems.add("topology labels " + keys + ": a key given twice, the repetition ignored");
    }
    int tiers = distinct.size();
    Map<List<String>, Group> groups = new LinkedHashMap<>(); // by the values of every key down to its own
    Map<String, List<String>> missing = new LinkedHashMap<>();
    List<Node> sorted = nodes.stream().sorted(Comparator.comparing(Node::name)).toList();
    for (Node n : sorted) {
      List<String> path = new ArrayList<>();
      Group parent = null;
      for (int i = 0; i < tiers; i++) {
        String key = distinct.get(i);
        String value = n.labels().get(key);
        if (value == null || value.isBlank()) { // a blank value names no domain (TopologyDocumentFuzzTest seed 35)
          missing.computeIfAbsent(key, k -> new ArrayList<>()).add(n.name());
          path.add(null);
          continue;
        }
        path.add(value);
        Group up = parent;
        parent = groups.computeIfAbsent(new ArrayList<>(path), p -> new Group(tiers - p.size() + 1,
            key, value, up));
      }
      if (parent != null) {
        parent.nodes.add(n.name());
      }
    }
    for (String key : distinct) { // widest first, whatever node missed which label first
      List<String> names = missing.get(key);
      if (names == null) {
        continue;
      }
      problems.add("label " + key + ": " + names.size() + " of " + nodes.size()
        + " nodes do not have it (" + String.join(", ", names.subList(0, Math.min(EXAMPLES, names.size())))
        + (names.size() > EXAMPLES ? ", ..." : "") + "), left out of tier " + (tiers - distinct.indexOf(key)));
    }
    List<DomainSpec> specs = specs(groups.values());
    List<String> clusterNodes = sorted.stream().map(Node::name).toList();
    FabricBuilder.Result built = FabricBuilder.build("domain", specs, clusterNodes, List.of());
    problems.addAll(built.problems());
    return new FabricBuilder.Result(built.fabric(), problems);
  }

  /** One domain while it is being found. */
  private static final class Group {
    final int tier;
    final String key;
    final String value;
    final Group parent;
    final List<String> nodes = new ArrayList<>();
    final Set<Group> children = new LinkedHashSet<>();
    String name;

    Group(int tier, String key, String value, Group parent) {
      this.tier = tier;
      this.key = key;
      this.value = value;
      this.parent = parent;
      if (parent != null) {
        parent.children.add(this);
      }
    }
  }

  /** Names the groups (widest first, so a parent's name is known) and turns them into specs. */
  private static List<DomainSpec> specs(Collection<Group> groups) {
    Map<String, Integer> uses = new HashMap<>();
    groups.forEach(g -> uses.merge(g.value, 1, Integer::sum));
    List<Group> widestFirst = groups.stream().sorted(Comparator.comparingInt((Group g) -> -g.tier)).toList();
    Set<String> taken = new LinkedHashSet<>();
    for (Group g : widestFirst) {
      String name = uses.get(g.value) == 1 || g.parent == null ? g.value : g.parent.name + "/" + g.value;
      if (!taken.add(name)) { // two parentless domains of one value on different tiers (nodes missing a wider label)
        name = name + "@tier" + g.tier;
        taken.add(name);
      }
      g.name = name;
    }
    List<DomainSpec> specs = new ArrayList<>();
    for (Group g : groups) {
      specs.add(new DomainSpec(g.name, g.tier, g.key, g.children.stream().map(c -> c.name).toList(), g.nodes));
    }
    return specs;
  }
}
