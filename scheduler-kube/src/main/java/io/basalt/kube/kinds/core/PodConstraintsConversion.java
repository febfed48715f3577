package io.basalt.kube.kinds.core;

import static io.basalt.kube.kinds.Conversion.isBlank;

import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.model.HostPort;
import io.basalt.model.LabelSelector;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.PodAffinityTerm;
import io.basalt.model.PodConstraints;
import io.basalt.model.PreferredSchedulingTerm;
import io.basalt.model.TopologySpreadConstraint;
import io.basalt.model.WeightedPodAffinityTerm;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The parts of a pod spec in {@link PodConstraints}. A value the API server would have refused (a weight outside
 * 1-100, a {@code maxSkew} below 1, an unknown operator) fails the conversion naming the field, rather than being
 * read some way the user did not mean.
 */
final class PodConstraintsConversion {
  private static final Set<String> LABEL_OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

  private PodConstraintsConversion() {}

  static PodConstraints of(V1PodSpec spec, Ctx ctx) {
    List<String> gates = gates(spec.getSchedulingGates(), ctx);
    List<HostPort> ports = hostPorts(spec, ctx);
    V1Affinity a = spec.getAffinity();
    List<PreferredSchedulingTerm> preferredNode = List.of();
    List<PodAffinityTerm> reqAff = List.of();
    List<WeightedPodAffinityTerm> prefAff = List.of();
    List<PodAffinityTerm> reqAnti = List.of();
    List<WeightedPodAffinityTerm> prefAnti = List.of();
    if (a != null) {
      if (a.getNodeAffinity() != null) {
        preferredNode = preferredNodeTerms(a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution", ctx);
      }
      if (a.getPodAffinity() != null) {
        String base = "spec.affinity.podAffinity.";
        reqAff = terms(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
            base + "requiredDuringSchedulingIgnoredDuringExecution", ctx);
        prefAff = weighted(a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
            base + "preferredDuringSchedulingIgnoredDuringExecution", ctx);
      }
      if (a.getPodAntiAffinity() != null) {
        String base = "spec.affinity.podAntiAffinity.";
        reqAnti = terms(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
            base + "requiredDuringSchedulingIgnoredDuringExecution", ctx);
        prefAnti = weighted(a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
            base + "preferredDuringSchedulingIgnoredDuringExecution", ctx);
      }
    }
    List<TopologySpreadConstraint> spread = spread(spec.getTopologySpreadConstraints(), ctx);
    List<String> images = images(spec);
    if (gates.isEmpty() && ports.isEmpty() && preferredNode.isEmpty() && reqAff.isEmpty() && prefAff.isEmpty()
        && reqAnti.isEmpty() && prefAnti.isEmpty() && spread.isEmpty() && images.isEmpty()) {
      return PodConstraints.NONE;
    }
    return new PodConstraints(gates, ports, preferredNode, reqAff, prefAff, reqAnti, prefAnti, spread, images);
  }

  private static List<String> gates(List<V1PodSchedulingGate> in, Ctx ctx) {
    if (in == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      V1PodSchedulingGate g = in.get(i);
      if (g == null || isBlank(g.getName())) {
        throw ctx.fail("spec.schedulingGates[" + i + "].name", "missing");
      }
      out.add(g.getName());
    }
    return out;
  }

  /**
   * Host ports of app containers and of restartable ("sidecar") init containers, which keep running beside them; an
   * ordinary init container has ended before the app containers bind theirs, so kube-scheduler does not count it.
   */
  private static List<HostPort> hostPorts(V1PodSpec spec, Ctx ctx) {
    List<HostPort> out = new ArrayList<>();
    addPorts(out, spec.getInitContainers(), true, "spec.initContainers", ctx);
    addPorts(out, spec.getContainers(), false, "spec.containers", ctx);
    return out;
  }

  private static void addPorts(List<HostPort> out, List<V1Container> containers, boolean sidecarsOnly, String path,
      Ctx ctx) {
    if (containers == null) {
      return;
    }
    for (int c = 0; c < containers.size(); c++) {
      V1Container container = containers.get(c);
      if (container == null || container.getPorts() == null
          || sidecarsOnly && !"Always".equals(container.getRestartPolicy())) {
        continue;
      }
      for (int p = 0; p < container.getPorts().size(); p++) {
        V1ContainerPort port = container.getPorts().get(p);
        if (port == null || port.getHostPort() == null || port.getHostPort() == 0) {
          continue;
        }
        int host = port.getHostPort();
        if (host < 1 || host > 65535) {
          throw ctx.fail(path + "[" + c + "].ports[" + p + "].hostPort", "must be 1-65535, got " + host);
        }
        out.add(new HostPort(port.getProtocol(), port.getHostIP(), host));
      }
    }
  }

  private static List<PreferredSchedulingTerm> preferredNodeTerms(List<V1PreferredSchedulingTerm> in, String path,
      Ctx ctx) {
    if (in == null) {
      return List.of();
    }
    List<PreferredSchedulingTerm> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      V1PreferredSchedulingTerm t = in.get(i);
      String at = path + "[" + i + "]";
      if (t == null || t.getPreference() == null) {
        throw ctx.fail(at + ".preference", "missing");
      }
      int weight = weight(t.getWeight(), at + ".weight", ctx);
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      PodConversion.addRequirements(reqs, t.getPreference().getMatchExpressions(), false,
          at + ".preference.matchExpressions", ctx);
      PodConversion.addRequirements(reqs, t.getPreference().getMatchFields(), true, at + ".preference.matchFields",
          ctx);
      out.add(new PreferredSchedulingTerm(weight, new NodeSelectorTerm(reqs)));
    }
    return out;
  }

  private static List<PodAffinityTerm> terms(List<V1PodAffinityTerm> in, String path, Ctx ctx) {
    if (in == null) {
      return List.of();
    }
    List<PodAffinityTerm> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      out.add(term(in.get(i), path + "[" + i + "]", ctx));
    }
    return out;
  }

  private static List<WeightedPodAffinityTerm> weighted(List<V1WeightedPodAffinityTerm> in, String path, Ctx ctx) {
    if (in == null) {
      return List.of();
    }
    List<WeightedPodAffinityTerm> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      V1WeightedPodAffinityTerm w = in.get(i);
      String at = path + "[" + i + "]";
      if (w == null) {
        throw ctx.fail(at, "null");
      }
      out.add(new WeightedPodAffinityTerm(weight(w.getWeight(), at + ".weight", ctx),
          term(w.getPodAffinityTerm(), at + ".podAffinityTerm", ctx)));
    }
    return out;
  }

  private static PodAffinityTerm term(V1PodAffinityTerm t, String at, Ctx ctx) {
    if (t == null) {
      throw ctx.fail(at, "null");
    }
    if (isBlank(t.getTopologyKey())) {
      throw ctx.fail(at + ".topologyKey", "missing");
    }
    return new PodAffinityTerm(selector(t.getLabelSelector(), at + ".labelSelector", ctx), t.getNamespaces(),
        selector(t.getNamespaceSelector(), at + ".namespaceSelector", ctx), t.getTopologyKey(),
        t.getMatchLabelKeys(), t.getMismatchLabelKeys());
  }

  private static List<TopologySpreadConstraint> spread(List<V1TopologySpreadConstraint> in, Ctx ctx) {
    if (in == null) {
      return List.of();
    }
    List<TopologySpreadConstraint> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      V1TopologySpreadConstraint c = in.get(i);
      String at = "spec.topologySpreadConstraints[" + i + "]";
      if (c == null) {
        throw ctx.fail(at, "null");
      }
      if (c.getMaxSkew() == null || c.getMaxSkew() < 1) {
        throw ctx.fail(at + ".maxSkew", "must be at least 1, got " + c.getMaxSkew());
      }
      if (isBlank(c.getTopologyKey())) {
        throw ctx.fail(at + ".topologyKey", "missing");
      }
      String when = c.getWhenUnsatisfiable();
      if (!TopologySpreadConstraint.DO_NOT_SCHEDULE.equals(when)
          && !TopologySpreadConstraint.SCHEDULE_ANYWAY.equals(when)) {
        throw ctx.fail(at + ".whenUnsatisfiable", "must be DoNotSchedule or ScheduleAnyway, got " + when);
      }
      if (c.getMinDomains() != null && c.getMinDomains() < 1) {
        throw ctx.fail(at + ".minDomains", "must be at least 1, got " + c.getMinDomains());
      }
      policy(c.getNodeAffinityPolicy(), at + ".nodeAffinityPolicy", ctx);
      policy(c.getNodeTaintsPolicy(), at + ".nodeTaintsPolicy", ctx);
      out.add(new TopologySpreadConstraint(c.getMaxSkew(), c.getTopologyKey(), when,
          selector(c.getLabelSelector(), at + ".labelSelector", ctx), c.getMinDomains(), c.getNodeAffinityPolicy(),
          c.getNodeTaintsPolicy(), c.getMatchLabelKeys()));
    }
    return out;
  }

  private static void policy(String value, String at, Ctx ctx) {
    if (value != null && !"Honor".equals(value) && !"Ignore".equals(value)) {
      throw ctx.fail(at, "must be Honor or Ignore, got " + value);
    }
  }

  /** Null for an absent selector (which matches no pod, as Kubernetes reads it). */
  private static LabelSelector selector(V1LabelSelector s, String at, Ctx ctx) {
    if (s == null) {
      return null;
    }
    List<LabelSelector.Requirement> reqs = new ArrayList<>();
    List<V1LabelSelectorRequirement> exprs = s.getMatchExpressions();
    if (exprs != null) {
      for (int i = 0; i < exprs.size(); i++) {
        V1LabelSelectorRequirement r = exprs.get(i);
        String e = at + ".matchExpressions[" + i + "]";
        if (r == null || isBlank(r.getKey())) {
          throw ctx.fail(e + ".key", "missing");
        }
        if (!LABEL_OPERATORS.contains(r.getOperator())) {
          throw ctx.fail(e + ".operator", "must be one of In, NotIn, Exists, DoesNotExist, got " + r.getOperator());
        }
        boolean needsValues = "In".equals(r.getOperator()) || "NotIn".equals(r.getOperator());
        boolean hasValues = r.getValues() != null && !r.getValues().isEmpty();
        if (needsValues != hasValues) {
          throw ctx.fail(e + ".values", needsValues ? "must not be empty for " + r.getOperator()
              : "must be empty for " + r.getOperator());
        }
        reqs.add(new LabelSelector.Requirement(r.getKey(), r.getOperator(), r.getValues()));
      }
    }
    return new LabelSelector(s.getMatchLabels(), reqs);
  }

  private static int weight(Integer w, String at, Ctx ctx) {
    if (w == null || w < 1 || w > 100) {
      throw ctx.fail(at, "must be 1-100, got " + w);
    }
    return w;
  }

  private static List<String> images(V1PodSpec spec) {
    List<String> out = new ArrayList<>();
    if (spec.getContainers() != null) {
      for (V1Container c : spec.getContainers()) {
        if (c != null && !isBlank(c.getImage())) {
          out.add(c.getImage());
        }
      }
    }
    return out;
  }
}
