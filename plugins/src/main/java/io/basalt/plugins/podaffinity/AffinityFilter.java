package io.basalt.plugins.podaffinity;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * kube-scheduler's InterPodAffinity filter: the incoming pod's required affinity (every term's domain on the node
 * holds a pod matching all its terms) and anti-affinity (no term's domain holds a pod it matches), then the existing
 * pods' required anti-affinity against it. A pod whose affinity matches no pod anywhere may go where every term's
 * key is a node label, if its own labels match its terms: the first pod of a group that is affine to itself.
 *
 * <p>Its answers read other pods, so it signs none of them, with one exception that keeps the search's reuse for the
 * pods most clusters are made of: a pod without required terms that no pod's required anti-affinity matches passes
 * every node, and signs a constant.
 */
final class AffinityFilter implements PreparedFilter, PodSigner {
  // kube-scheduler's reasons (interpodaffinity plugin).
  static final FilterResult AFFINITY = FilterResult.unfit("node(s) didn't match pod affinity rules");
  static final FilterResult ANTI_AFFINITY = FilterResult.unfit("node(s) didn't match pod anti-affinity rules");
  static final FilterResult EXISTING_ANTI_AFFINITY =
      FilterResult.unfit("node(s) didn't satisfy existing pods anti-affinity rules");

  /** The signature of a pod that passes every node. */
  static final String FITS = "pod affinity: fits everywhere";

  private final PodState state;
  /** The check last prepared, for asks one node at a time (diagnoses, trial placements): kept until a change. */
  private TaskInfo lastTask;
  private int lastChanges = -1;
  private Function<NodeInfo, FilterResult> lastCheck;

  AffinityFilter(PodState state) {
    this.state = state;
  }

  @Override
  public Object sign(TaskInfo task) {
    Pod pod = task.pod();
    if (hasRequiredTerms(pod.constraints())) {
      return null;
    }
    return state.noRequiredAnti() || state.view(pod).anti.isEmpty() ? FITS : null;
  }

  private static boolean hasRequiredTerms(PodConstraints c) {
    return !c.requiredAffinity().isEmpty() || !c.requiredAntiAffinity().isEmpty();
  }

  @Override
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    if (task != lastTask || lastChanges != state.changes()) {
      lastCheck = forTask(task);
      lastTask = task;
      lastChanges = state.changes();
    }
    return lastCheck == null ? FilterResult.OK : lastCheck.apply(node);
  }

  @Override
  public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    Pod pod = task.pod();
    PodConstraints c = pod.constraints();
    TopologyCounts existingAnti = state.noRequiredAnti() ? null : state.view(pod).anti;
    if (existingAnti != null && existingAnti.isEmpty()) {
      existingAnti = null;
    }
    if (!hasRequiredTerms(c) && existingAnti == null) {
      return null;
    }
    Domains affinity = null;
    boolean firstOfGroup = false;
    if (!c.requiredAffinity().isEmpty()) {
      List<Term> terms = Term.of(c.requiredAffinity(), pod);
      TopologyCounts counts = state.counts(new PodState.Tally(terms, ones(terms.size()), true));
      affinity = Domains.of(terms, counts);
      firstOfGroup = counts.isEmpty() && matchesAll(terms, pod);
    }
    Domains anti = null;
    if (!c.requiredAntiAffinity().isEmpty()) {
      List<Term> terms = Term.of(c.requiredAntiAffinity(), pod);
      TopologyCounts counts = state.counts(new PodState.Tally(terms, ones(terms.size()), false));
      anti = counts.isEmpty() ? null : Domains.of(terms, counts);
    }
    Domains existing = existingAnti == null ? null : Domains.of(existingAnti);
    NodeDomains nodes = state.nodeDomains();
    return new Check(affinity, firstOfGroup, anti, existing, refusals(nodes, anti, existing), nodes);
  }

  private static final byte ANTI = 1;
  private static final byte EXISTING_ANTI = 2;

  /**
   * Per node position, what refuses the pod there by anti-affinity ({@link #ANTI} before {@link #EXISTING_ANTI}, as
   * kube-scheduler asks them), or 0: each counted domain's nodes marked once, so a visit reads one byte.
   */
  private static byte[] refusals(NodeDomains nodes, Domains anti, Domains existing) {
    if (anti == null && existing == null) {
      return null;
    }
    byte[] refused = new byte[nodes.size()];
    mark(refused, nodes, existing, EXISTING_ANTI);
    mark(refused, nodes, anti, ANTI);
    return refused;
  }

  private static void mark(byte[] refused, NodeDomains nodes, Domains domains, byte reason) {
    if (domains == null) {
      return;
    }
    for (int i = 0; i < domains.keys.length; i++) {
      if (domains.values[i] == null) {
        continue;
      }
      for (Map.Entry<String, long[]> e : domains.values[i].entrySet()) {
        if (e.getValue()[0] > 0) {
          for (int p : nodes.positions(domains.keys[i], e.getKey())) {
            refused[p] = reason;
          }
        }
      }
    }
  }

  private boolean matchesAll(List<Term> terms, Pod pod) {
    Map<String, String> ns = state.namespaceLabels(pod.namespace());
    for (Term t : terms) {
      if (!t.matches(pod, ns)) {
        return false;
      }
    }
    return true;
  }

  static List<Integer> ones(int n) {
    return Collections.nCopies(n, 1);
  }

  /** Terms' topology keys with the counts of each key's values, read once per search. */
  private record Domains(String[] keys, Map<String, long[]>[] values) {
    @SuppressWarnings("unchecked")
    static Domains of(List<Term> terms, TopologyCounts counts) {
      String[] keys = new String[terms.size()];
      Map<String, long[]>[] values = new Map[keys.length];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = terms.get(i).topologyKey();
        values[i] = counts.values(keys[i]);
      }
      return new Domains(keys, values);
    }

    /** Every key {@code counts} counts, with its values: read once per search rather than walked per node. */
    @SuppressWarnings("unchecked")
    static Domains of(TopologyCounts counts) {
      Map<String, Map<String, long[]>> byKey = counts.byKey();
      String[] keys = new String[byKey.size()];
      Map<String, long[]>[] values = new Map[keys.length];
      int i = 0;
      for (Map.Entry<String, Map<String, long[]>> e : byKey.entrySet()) {
        keys[i] = e.getKey();
        values[i++] = e.getValue();
      }
      return new Domains(keys, values);
    }
  }

  /**
   * The filter for one pod across one search; null parts pass every node. {@code refused} holds the anti-affinity
   * answers by node position, for the session's own node copies.
   */
  private record Check(Domains affinity, boolean firstOfGroup, Domains anti, Domains existingAnti, byte[] refused,
      NodeDomains nodes) implements Function<NodeInfo, FilterResult> {
    @Override
    public FilterResult apply(NodeInfo node) {
      Map<String, String> labels = node.node().labels();
      if (affinity != null) {
        boolean found = true;
        for (int i = 0; i < affinity.keys.length; i++) {
          String value = labels.get(affinity.keys[i]);
          if (value == null) {
            return AFFINITY; // every term's key must be a label of the node
          }
          if (TopologyCounts.get(affinity.values[i], value) <= 0) {
            found = false;
          }
        }
        if (!found && !firstOfGroup) {
          return AFFINITY;
        }
      }
      // kube-scheduler's order: the pod's affinity, its anti-affinity, then existing pods' anti-affinity.
      int p = refused == null ? -1 : nodes.position(node);
      if (p >= 0) {
        byte r = refused[p];
        return r == 0 ? FilterResult.OK : r == ANTI ? ANTI_AFFINITY : EXISTING_ANTI_AFFINITY;
      }
      if (anti != null) {
        for (int i = 0; i < anti.keys.length; i++) {
          if (TopologyCounts.get(anti.values[i], labels.get(anti.keys[i])) > 0) {
            return ANTI_AFFINITY;
          }
        }
      }
      if (existingAnti != null) {
        for (int i = 0; i < existingAnti.keys.length; i++) {
          if (TopologyCounts.get(existingAnti.values[i], labels.get(existingAnti.keys[i])) > 0) {
            return EXISTING_ANTI_AFFINITY;
          }
        }
      }
      return FilterResult.OK;
    }
  }
}
