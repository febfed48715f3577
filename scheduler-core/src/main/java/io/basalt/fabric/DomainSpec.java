package io.basalt.fabric;

import java.util.List;

/**
 * A domain as a source states it, before {@link FabricBuilder} checks it: members already resolved to node names and
 * child domain names (a HyperNode's regex or label selectors are the reader's business). May be wrong in every way
 * the builder reports: unknown members, cycles, overlaps.
 *
 * @param name the domain's name
 * @param tier 1 is the closest, higher is wider; a negative tier is reported and the domain ignored
 * @param tierName what the source calls the tier, or null
 * @param children names of child domains
 * @param nodes names of nodes directly inside
 */
public record DomainSpec(String name, int tier, String tierName, List<String> children, List<String> nodes) {
  public DomainSpec {
    children = children == null ? List.of() : List.copyOf(children);
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
  }
}
