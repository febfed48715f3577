package io.basalt.fabric;

import java.util.List;

/**
 * One network domain of a {@link Fabric} (a Volcano HyperNode, a MetaX dragonfly or switchbox, a rack): nodes that
 * talk faster to each other than to nodes outside. Immutable.
 *
 * @param name unique among the fabric's domains
 * @param tier 1 is the closest (fastest) domain, higher is wider
 * @param tierName what the source calls this tier ({@code dragonfly}, a label key), or null
 * @param children names of the domains directly inside, sorted
 * @param nodes names of the nodes directly inside (not through a child), sorted
 */
public record Domain(String name, int tier, String tierName, List<String> children, List<String> nodes) {
  public Domain {
    children = List.copyOf(children);
    nodes = List.copyOf(nodes);
  }
}
