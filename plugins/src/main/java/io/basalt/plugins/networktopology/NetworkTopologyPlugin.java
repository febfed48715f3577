package io.basalt.plugins.networktopology;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.config.Arguments;
import io.basalt.fabric.Fabric;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.FilterResult;
import io.basalt.framework.GroupedScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.ResourceNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Topology-aware placement over the network fabric (supernodes, HyperNodes), under Volcano's name
 * {@code network-topology-aware} and MetaX's {@code gpu-podaffinity}: either one in the tiers turns it on. A job
 * asking for a domain (PodGroup {@code networkTopology}, {@code metax-tech.com/gpu-group-size}) is then placed whole
 * inside one by the allocate action; this plugin ranks the candidate domains, keeps nodes a topology source reports
 * not Ready free of new pods, and nudges jobs that ask for nothing toward partly used domains, so empty ones stay
 * whole for the next big job.
 *
 * <p>Domain rank: {@code weight} x 100 x the weighted used fraction of the domain's nodes, over the resources
 * weighted by {@code hypernode.binpack.cpu} (1), {@code hypernode.binpack.memory} (1),
 * {@code hypernode.binpack.resources} (more names, comma-separated) and {@code hypernode.binpack.resources.<name>}
 * (1; GPUs are always weighted): the fullest domain that has room wins, the best fit. Node nudge: {@code weight} x 10
 * x the used fraction of the node's tier-1 domain, as of the session's start.
 */
public final class NetworkTopologyPlugin implements Plugin {
  public static final String VOLCANO_NAME = "network-topology-aware";
  public static final String METAX_NAME = "gpu-podaffinity";

  static final String WEIGHT = "weight";
  static final String PREFIX = "hypernode.binpack.";
  static final List<String> GPUS = List.of("nvidia.com/gpu", "metax-tech.com/gpu");

  /** Read once per config. */
  record Settings(int weight, Map<String, Integer> resourceWeights) {}

  private final String name;
  private final Settings settings;

  NetworkTopologyPlugin(String name, Settings settings) {
    this.name = name;
    this.settings = settings;
  }

  public static PluginDescriptor<?> volcanoDescriptor() {
    return PluginDescriptor.of(VOLCANO_NAME, NetworkTopologyPlugin::read,
        s -> new NetworkTopologyPlugin(VOLCANO_NAME, s));
  }

  public static PluginDescriptor<?> metaxDescriptor() {
    return PluginDescriptor.of(METAX_NAME, NetworkTopologyPlugin::read, s -> new NetworkTopologyPlugin(METAX_NAME, s));
  }

  static Settings read(Arguments args) {
    Map<String, Integer> weights = new LinkedHashMap<>();
    weights.put(ResourceNames.CPU_NAME, args.getWeight(PREFIX + "cpu", 1));
    weights.put(ResourceNames.MEMORY_NAME, args.getWeight(PREFIX + "memory", 1));
    for (String gpu : GPUS) {
      weights.put(gpu, args.getWeight(PREFIX + "resources." + gpu, 1));
    }
    for (String n : args.getString(PREFIX + "resources", "").split(",")) {
      String r = n.trim();
      if (!r.isEmpty() && !weights.containsKey(r)) {
        weights.put(r, args.getWeight(PREFIX + "resources." + r, 1));
      }
    }
    return new Settings(args.getWeight(WEIGHT, 1), weights);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    Fabric fabric = session.fabric();
    Usage usage = new Usage(session, settings.resourceWeights());
    DomainUse domains = new DomainUse(fabric, usage);
    registrar.addDomainScorer((JobInfo job, String domain) -> settings.weight() * 100.0 * domains.fraction(domain));
    if (fabric.isEmpty()) {
      return;
    }
    registrar.addAllocationListener(AllocationListener.of(domains::placed));
    registrar.addFilter(PodSigner.signedFilter((task, node) -> fabric.unready(node.name())
        ? FilterResult.unfit("node(s) not Ready in the network topology") : FilterResult.OK, t -> fabric));
    int[] tiers = fabric.tiers();
    TierOneUse tierOne = new TierOneUse(fabric, tiers[0], usage, session.nodes());
    registrar.addAllocationListener(AllocationListener.of(tierOne::placed));
    registrar.addScorer(new Nudge(tierOne, settings.weight() * 10.0));
  }

  /**
   * The node nudge: {@code scale} x the used fraction of the node's tier-1 domain for a pod of a job that asks for no
   * domain. It reads other nodes' use, so for such a pod it cannot be signed; it is one value per tier-1 domain
   * instead ({@link GroupedScorer}), which the search re-adds when a domain's use moves. For a pod of a job that asks
   * for a domain it is always 0, which a search may keep like any node-local answer.
   */
  private static final class Nudge implements PreparedScorer, PodSigner, GroupedScorer {
    /** The key of a pod whose nudge is 0 on every node. */
    private static final Object NONE = "no nudge";
    private final TierOneUse tierOne;
    private final double scale;
    private final Groups groups;

    Nudge(TierOneUse tierOne, double scale) {
      this.tierOne = tierOne;
      this.scale = scale;
      this.groups = new Groups() {
        @Override
        public int groupOf(int position) {
          return tierOne.groupOf(position);
        }

        @Override
        public int count() {
          return tierOne.shares.length;
        }

        @Override
        public double value(int g) {
          return scale * tierOne.shares[g].fraction;
        }

        @Override
        public int stamp(int g) {
          return tierOne.shares[g].stamp;
        }

        @Override
        public int[] members(int g) {
          return tierOne.shares[g].members;
        }
      };
    }

    @Override
    public Groups groups(TaskInfo task) {
      return placedInDomain(task) ? null : groups;
    }

    private static boolean placedInDomain(TaskInfo task) {
      return task.job() != null && task.job().networkTopology() != null;
    }

    @Override
    public double score(TaskInfo task, NodeInfo node) {
      return placedInDomain(task) ? 0 : scale * tierOne.fraction(node);
    }

    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      return placedInDomain(task) ? node -> 0 : node -> scale * tierOne.fraction(node);
    }

    @Override
    public Object sign(TaskInfo task) {
      return placedInDomain(task) ? NONE : null;
    }
  }

  /**
   * How used each tier-1 domain is, kept current as the session places pods (not only as of its start), so the
   * first pods of a big cycle already gather in the domains the earlier ones opened instead of spreading over all.
   */
  private static final class TierOneUse {
    private final Fabric fabric;
    private final int tier;
    private final Usage usage;
    /** Each tier-1 domain's share, for placements and for nodes outside the session's list. */
    private final Map<String, Share> byDomain = new HashMap<>();
    /**
     * The session's nodes by position, and the share of each (one object for all nodes of a domain): the node nudge
     * reads it for every node a search visits, so by position, without a lookup.
     */
    private final NodeInfo[] nodes;
    private final Share[] at;

    /** The tier-1 domains' shares, numbered. */
    private final Share[] shares;

    /**
     * A tier-1 domain's allocatable and used of each weighted resource, its used fraction, a stamp moved with it, and
     * the session positions of its nodes.
     */
    private static final class Share {
      final int id;
      final long[][] totals;
      double fraction;
      int stamp;
      int[] members = new int[0];

      Share(int id, long[][] totals) {
        this.id = id;
        this.totals = totals;
      }
    }

    TierOneUse(Fabric fabric, int tier, Usage usage, List<NodeInfo> nodes) {
      this.fabric = fabric;
      this.tier = tier;
      this.usage = usage;
      List<Share> numbered = new ArrayList<>();
      for (String d : fabric.domains(tier)) {
        Share share = new Share(numbered.size(), new long[2][usage.slots.length]);
        numbered.add(share);
        byDomain.put(d, share);
      }
      this.shares = numbered.toArray(Share[]::new);
      this.nodes = nodes.toArray(NodeInfo[]::new);
      this.at = new Share[this.nodes.length];
      int[] sizes = new int[shares.length];
      for (int p = 0; p < this.nodes.length; p++) {
        String name = this.nodes[p].name();
        Share share = share(name);
        at[p] = share;
        if (share != null) {
          sizes[share.id]++;
          if (!fabric.unready(name)) {
            usage.add(share.totals, this.nodes[p]);
          }
        }
      }
      for (Share share : shares) {
        share.fraction = usage.fraction(share.totals);
        share.members = new int[sizes[share.id]];
      }
      Arrays.fill(sizes, 0);
      for (int p = 0; p < at.length; p++) {
        if (at[p] != null) {
          at[p].members[sizes[at[p].id]++] = p;
        }
      }
    }

    /** The number of the tier-1 domain of the session's node at {@code position}, or -1 for none. */
    int groupOf(int position) {
      Share s = position < at.length ? at[position] : null;
      return s == null ? -1 : s.id;
    }

    private Share share(String node) {
      String d = fabric.domainOf(node, tier);
      return d == null ? null : byDomain.get(d);
    }

    double fraction(NodeInfo node) {
      int p = node.position();
      Share s = p < nodes.length && nodes[p] == node ? at[p] : share(node.name());
      return s == null ? 0 : s.fraction;
    }

    /** O(resources): a placement changes its domain's used counts by the pod's request (a pipelined pod uses nothing). */
    void placed(TaskInfo task, int sign) {
      Share s = task.nodeName() == null || task.status() == TaskStatus.PIPELINED ? null : share(task.nodeName());
      if (s != null && !fabric.unready(task.nodeName())) {
        usage.add(s.totals, task, sign);
        s.fraction = usage.fraction(s.totals);
        s.stamp++;
      }
    }
  }

  /**
   * How used each domain is, for ranking domains: summed over its ready nodes the first time a gang asks, then moved
   * by each pod allocated or taken back there, so a domain's rank costs O(resources), not a read of its nodes per gang.
   * Only an allocated pod changes what a node uses (a pipelined one reserves, an evicted one still uses until it is
   * gone), so the totals stay equal to a fresh sum over the nodes.
   */
  private static final class DomainUse {
    private final Fabric fabric;
    private final int[] tiers;
    private final Usage usage;
    /** Per domain asked about, allocatable and used of each weighted resource. */
    private final Map<String, long[][]> totals = new HashMap<>();

    DomainUse(Fabric fabric, Usage usage) {
      this.fabric = fabric;
      this.tiers = fabric.tiers();
      this.usage = usage;
    }

    double fraction(String domain) {
      long[][] t = totals.get(domain);
      if (t == null) {
        t = usage.totals(fabric.readyNodes(domain));
        if (fabric.domain(domain) != null && !Fabric.ROOT.equals(domain)) {
          totals.put(domain, t);
        }
      }
      return usage.fraction(t);
    }

    void placed(TaskInfo task, int sign) {
      String node = task.nodeName();
      if (totals.isEmpty() || node == null || task.status() != TaskStatus.ALLOCATED || fabric.unready(node)) {
        return;
      }
      for (int tier : tiers) {
        String d = fabric.domainOf(node, tier);
        long[][] t = d == null ? null : totals.get(d);
        if (t != null) {
          usage.add(t, task, sign);
        }
      }
    }
  }

  /** Weighted used fractions over nodes, with resource names resolved once per session. */
  private static final class Usage {
    private final SessionView session;
    private final int[] slots;
    private final int[] weights;

    Usage(SessionView session, Map<String, Integer> resourceWeights) {
      this.session = session;
      int[] s = new int[resourceWeights.size()];
      int[] w = new int[s.length];
      int n = 0;
      for (Map.Entry<String, Integer> e : resourceWeights.entrySet()) {
        int slot = ResourceNames.indexIfKnown(e.getKey());
        if (slot >= 0 && e.getValue() > 0) {
          s[n] = slot;
          w[n++] = e.getValue();
        }
      }
      this.slots = java.util.Arrays.copyOf(s, n);
      this.weights = java.util.Arrays.copyOf(w, n);
    }

    /** {allocatable, used} of each weighted resource summed over the nodes. */
    long[][] totals(List<String> nodes) {
      long[][] t = new long[2][slots.length];
      for (String name : nodes) {
        NodeInfo node = session.node(name);
        if (node != null) {
          for (int i = 0; i < slots.length; i++) {
            t[0][i] += node.allocatable(slots[i]);
            t[1][i] += node.used(slots[i]);
          }
        }
      }
      return t;
    }

    /** Adds {@code node}'s allocatable and used to {@code t}. */
    void add(long[][] t, NodeInfo node) {
      for (int i = 0; i < slots.length; i++) {
        t[0][i] += node.allocatable(slots[i]);
        t[1][i] += node.used(slots[i]);
      }
    }

    void add(long[][] t, TaskInfo task, int sign) {
      for (int i = 0; i < slots.length; i++) {
        t[1][i] += sign * task.request().get(slots[i]);
      }
    }

    double fraction(long[][] t) {
      double sum = 0;
      long weightSum = 0;
      for (int i = 0; i < slots.length; i++) {
        if (t[0][i] > 0) {
          sum += weights[i] * Math.min(1.0, (double) t[1][i] / t[0][i]);
          weightSum += weights[i];
        }
      }
      return weightSum == 0 ? 0 : sum / weightSum;
    }
  }
}
