package io.basalt.actions;

import io.basalt.api.NodeInfo;
import io.basalt.fabric.Fabric;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each network domain will have free, per resource: the sum over its ready nodes of what each will have free
 * ({@link NodeInfo#futureIdle}, never less than nothing), kept current as the session's statements place, evict and
 * undo. The domain placer asks this of every domain of a tier for every gang; summed node by node, that is a read of
 * every node of the cluster per gang.
 *
 * <p>One per session (its scratch), made on first use, after the session opened. A resource's counters are summed
 * the first time it is asked about; from then on the session tells of every node that changed
 * ({@link Session#watchNodes}) and the node's domains move by what the node's own share moved. Domains are those of
 * the fabric's tiers; a node outside the session counts nothing, as does an unready node.
 */
final class DomainFree {
  private final List<NodeInfo> nodes;
  private final Map<String, Integer> domainIds = new HashMap<>();
  /** Per node position, the ids of the domains whose free room it counts in (one per tier it is under). */
  private final int[][] domainsOf;
  private final int domainCount;
  /** Per resource, each domain's free room; null until the resource is first asked about. */
  private long[][] sums = new long[0][];
  /** Per resource, each node's share of its domains' {@link #sums}, as last counted. */
  private long[][] shares = new long[0][];

  /** The session's counters, made and wired to its changes on first use. */
  static DomainFree of(Session session) {
    return session.scratch(DomainFree.class, () -> new DomainFree(session));
  }

  private DomainFree(Session session) {
    this(session.fabric(), session.nodes());
    session.watchNodes(this::changed);
  }

  /** Counters over {@code nodes} (the session's, by position); fed by {@link #changed} from then on. */
  DomainFree(Fabric fabric, List<NodeInfo> nodes) {
    this.nodes = nodes;
    int[] tiers = fabric.tiers();
    for (int tier : tiers) {
      for (String d : fabric.domains(tier)) {
        domainIds.put(d, domainIds.size());
      }
    }
    domainCount = domainIds.size();
    domainsOf = new int[nodes.size()][];
    int[] scratch = new int[tiers.length];
    for (int i = 0; i < nodes.size(); i++) {
      String name = nodes.get(i).name();
      int n = 0;
      if (!fabric.unready(name)) {
        for (int tier : tiers) {
          String d = fabric.domainOf(name, tier);
          if (d != null) {
            scratch[n++] = domainIds.get(d);
          }
        }
      }
      domainsOf[i] = Arrays.copyOf(scratch, n);
    }
  }

  /** True when {@code domain} is one of the fabric's tiered domains (the root and unknown names are not). */
  boolean counts(String domain) {
    return domainIds.containsKey(domain);
  }

  /** What {@code domain} will have free of resource {@code r}, summed over its ready nodes. */
  long free(String domain, int r) {
    Integer id = domainIds.get(domain);
    if (id == null) {
      throw new IllegalArgumentException("not a domain of the fabric's tiers: " + domain);
    }
    return sums(r)[id];
  }

  /**
   * The first resource, in slot order, of which {@code need} asks more than {@code domain} will have free (the
   * slots {@code skip} marks aside), or -1 when none: necessary for a gang to fit there, not sufficient.
   */
  int shortOf(String domain, ResourceVector need, boolean[] skip) {
    Integer id = domainIds.get(domain);
    if (id == null) {
      throw new IllegalArgumentException("not a domain of the fabric's tiers: " + domain);
    }
    for (int r : need.positiveSlots()) {
      if ((skip == null || r >= skip.length || !skip[r]) && need.get(r) > sums(r)[id]) {
        return r;
      }
    }
    return -1;
  }

  /** {@code node}'s accounting changed: its domains move by what its share moved, for each resource counted. */
  void changed(NodeInfo node) {
    int at = node.position();
    if (at >= nodes.size() || nodes.get(at) != node) {
      return;
    }
    int[] ds = domainsOf[at];
    if (ds.length == 0) {
      return;
    }
    for (int r = 0; r < sums.length; r++) {
      long[] sum = sums[r];
      if (sum == null) {
        continue;
      }
      long now = Math.max(0, node.futureIdle(r));
      long delta = now - shares[r][at];
      if (delta != 0) {
        shares[r][at] = now;
        for (int d : ds) {
          sum[d] += delta;
        }
      }
    }
  }

  private long[] sums(int r) {
    if (r >= sums.length) {
      sums = Arrays.copyOf(sums, r + 1);
      shares = Arrays.copyOf(shares, r + 1);
    }
    long[] sum = sums[r];
    if (sum == null) {
      sum = new long[domainCount];
      long[] share = new long[nodes.size()];
      for (int i = 0; i < share.length; i++) {
        if (domainsOf[i].length > 0) {
          share[i] = Math.max(0, nodes.get(i).futureIdle(r));
          for (int d : domainsOf[i]) {
            sum[d] += share[i];
          }
        }
      }
      sums[r] = sum;
      shares[r] = share;
    }
    return sum;
  }
}
