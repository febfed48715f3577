package io.basalt.plugins.predicates;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.FilterResult;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.Node;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import io.basalt.plugins.podaffinity.PodAffinity;
import io.basalt.plugins.topologyspread.PodTopologySpread;
import io.basalt.plugins.volumes.VolumeFilters;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Volcano's {@code predicates}: the kube-scheduler filters that decide whether a pod may run on a node at all, apart
 * from resources (the core checks those first, on every resource, and reports "Insufficient ..." itself).
 *
 * <p>Checks, in order: node ready, node not cordoned (NodeUnschedulable), nodeSelector plus required node affinity
 * (NodeAffinity), NoSchedule/NoExecute taints (TaintToleration); then, as filters of their own, host ports
 * ({@link NodePorts}), inter-pod affinity ({@code plugins.podaffinity}) and PodTopologySpread's DoNotSchedule
 * constraints ({@code plugins.topologyspread}). Each failure is worded as kube-scheduler words it, so the aggregated
 * "0/8 nodes are available: ..." message reads the same as the default scheduler's.
 *
 * <p>Arguments, as Volcano spells them: {@code predicate.NodeAffinityEnable}, {@code predicate.TaintTolerationEnable},
 * {@code predicate.NodePortsEnable}, {@code predicate.PodAffinityEnable}, {@code predicate.PodTopologySpreadEnable}
 * and, for the volume filters of {@code plugins.volumes}, {@code predicate.VolumeBindingEnable},
 * {@code predicate.VolumeZoneEnable}, {@code predicate.NodeVolumeLimitsEnable} and
 * {@code predicate.VolumeRestrictionsEnable} (all default true). Volcano's other {@code predicate.*Enable} keys switch
 * checks Basalt does not have and are left unread, so the config validator warns that they are not used.
 */
public final class PredicatesPlugin implements Plugin {
  public static final String NAME = "predicates";

  static final String NODE_AFFINITY_ENABLE = "predicate.NodeAffinityEnable";
  static final String TAINT_TOLERATION_ENABLE = "predicate.TaintTolerationEnable";
  static final String NODE_PORTS_ENABLE = "predicate.NodePortsEnable";
  static final String POD_AFFINITY_ENABLE = "predicate.PodAffinityEnable";
  static final String POD_TOPOLOGY_SPREAD_ENABLE = "predicate.PodTopologySpreadEnable";

  // kube-scheduler's reasons (nodeunschedulable, nodeaffinity, tainttoleration plugins); shared, so no allocation.
  static final FilterResult NOT_READY = FilterResult.unfit("node(s) were not ready");
  static final FilterResult UNSCHEDULABLE = FilterResult.unfit("node(s) were unschedulable");
  static final FilterResult AFFINITY_MISMATCH = FilterResult.unfit("node(s) didn't match Pod's node affinity/selector");

  /** The taint a cordoned node implicitly carries; tolerating it lets a pod onto the node anyway, as in kube. */
  static final Taint UNSCHEDULABLE_TAINT = new Taint("node.kubernetes.io/unschedulable", "", "NoSchedule");

  private final boolean nodeAffinity;
  private final boolean taintToleration;
  private final boolean nodePorts;
  private final boolean podAffinity;
  private final boolean topologySpread;
  private final VolumeFilters.Settings volumes;

  /** Which checks are switched on, read once per config. */
  record Settings(boolean nodeAffinity, boolean taintToleration, boolean nodePorts, boolean podAffinity,
      boolean topologySpread, VolumeFilters.Settings volumes) {
    Settings(boolean nodeAffinity, boolean taintToleration, boolean nodePorts, boolean podAffinity,
        boolean topologySpread) {
      this(nodeAffinity, taintToleration, nodePorts, podAffinity, topologySpread,
          new VolumeFilters.Settings(true, true, true, true));
    }

    static Settings read(Arguments args) {
      return new Settings(args.getBoolean(NODE_AFFINITY_ENABLE, true), args.getBoolean(TAINT_TOLERATION_ENABLE, true),
          args.getBoolean(NODE_PORTS_ENABLE, true), args.getBoolean(POD_AFFINITY_ENABLE, true),
          args.getBoolean(POD_TOPOLOGY_SPREAD_ENABLE, true), VolumeFilters.Settings.read(args));
    }
  }

  PredicatesPlugin(Settings settings) {
    this.nodeAffinity = settings.nodeAffinity();
    this.taintToleration = settings.taintToleration();
    this.nodePorts = settings.nodePorts();
    this.podAffinity = settings.podAffinity();
    this.topologySpread = settings.topologySpread();
    this.volumes = settings.volumes();
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, Settings::read, PredicatesPlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    registrar.addFilter(new Filter());
    if (nodePorts) {
      NodePorts ports = new NodePorts(session); // one per session: it keeps the ports placements take
      registrar.addFilter(ports);
      registrar.addAllocationListener(ports);
    }
    VolumeFilters.add(session, registrar, volumes); // claims, PVs: VolumeRestrictions ... VolumeZone
    if (podAffinity) {
      registrar.addFilter(PodAffinity.filter(session, registrar));
    }
    if (topologySpread) {
      PodTopologySpread.addFilter(session, registrar);
    }
  }

  /** The plugin's filter, prepared per task and signed. */
  private final class Filter implements PreparedFilter, PodSigner {
    @Override
    public FilterResult filter(TaskInfo task, NodeInfo node) {
      return PredicatesPlugin.this.filter(task, node);
    }

    /** The verdict reads the node and these three of the pod only. */
    @Override
    public Object sign(TaskInfo task) {
      Pod pod = task.pod();
      return new Key(pod.nodeSelector(), pod.requiredNodeAffinity(), pod.tolerations());
    }

    @Override
    public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
      PodChecks checks = checks(task.pod());
      return node -> checks.on(node.node());
    }
  }

  /** What {@link #filter} reads of a pod. */
  private record Key(Map<String, String> nodeSelector, List<NodeSelectorTerm> affinity, List<Toleration> tolerations) {}

  FilterResult filter(TaskInfo task, NodeInfo nodeInfo) {
    return checks(task.pod()).on(nodeInfo.node());
  }

  private PodChecks checks(Pod pod) {
    boolean affinity = nodeAffinity && (!pod.nodeSelector().isEmpty() || !pod.requiredNodeAffinity().isEmpty());
    return new PodChecks(pod, affinity, tolerates(pod.tolerations(), UNSCHEDULABLE_TAINT), taintToleration);
  }

  /**
   * The checks for one pod, what they read of it worked out once: whether its selector or affinity needs matching
   * at all and whether it tolerates a cordoned node; {@code taints} when the config checks taints.
   */
  private record PodChecks(Pod pod, boolean affinity, boolean toleratesCordon, boolean taints) {
    FilterResult on(Node node) {
      if (!node.ready()) {
        return NOT_READY;
      }
      if (node.unschedulable() && !toleratesCordon) {
        return UNSCHEDULABLE;
      }
      if (affinity && !matchesSelectorAndAffinity(pod, node)) {
        return AFFINITY_MISMATCH;
      }
      if (taints && !node.taints().isEmpty()) {
        Taint untolerated = firstUntoleratedTaint(pod.tolerations(), node.taints());
        if (untolerated != null) {
          return FilterResult.unfit(untoleratedReason(untolerated));
        }
      }
      return FilterResult.OK;
    }
  }

  /** nodeSelector labels must all match; then, when the pod has required terms, at least one term must match. */
  static boolean matchesSelectorAndAffinity(Pod pod, Node node) {
    Map<String, String> selector = pod.nodeSelector();
    if (!selector.isEmpty()) {
      Map<String, String> labels = node.labels();
      for (Map.Entry<String, String> e : selector.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    List<NodeSelectorTerm> terms = pod.requiredNodeAffinity();
    if (terms.isEmpty()) {
      return true;
    }
    for (int i = 0, n = terms.size(); i < n; i++) {
      if (terms.get(i).matches(node)) {
        return true;
      }
    }
    return false;
  }

  /** The first NoSchedule or NoExecute taint no toleration covers, or null; PreferNoSchedule is only a preference. */
  static Taint firstUntoleratedTaint(List<Toleration> tolerations, List<Taint> taints) {
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint t = taints.get(i);
      if (t.blocksScheduling() && !tolerates(tolerations, t)) {
        return t;
      }
    }
    return null;
  }

  static boolean tolerates(List<Toleration> tolerations, Taint taint) {
    for (int i = 0, n = tolerations.size(); i < n; i++) {
      if (tolerations.get(i).tolerates(taint)) {
        return true;
      }
    }
    return false;
  }

  /** kube-scheduler's wording, e.g. "node(s) had untolerated taint {nvidia.com/gpu: present}". */
  static String untoleratedReason(Taint t) {
    return "node(s) had untolerated taint {" + t.key() + ": " + (t.value() == null ? "" : t.value()) + "}";
  }
}
