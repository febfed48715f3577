package io.basalt.scheduler;

import io.basalt.cache.ClusterCache;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Warns when nodes offer vGPU slots (HAMi's form: {@code nvidia.com/gpu} = GPUs x 10, more than the devices the node
 * lists) but the tiers have no {@code deviceshare}: then a pod asking for a share ({@code nvidia.com/gpucores},
 * {@code gpumem}) is never placed, since nodes do not list those resources, and nothing else says why. Used by
 * {@code basalt validate --cluster}, {@code basalt simulate} and {@code basalt run}.
 */
public final class VgpuSlotCheck {
  static final String DEVICESHARE = "deviceshare";
  /** Nodes named in the warning; the rest are counted. */
  static final int NAMED = 3;

  private VgpuSlotCheck() {}

  /** The warning for {@code conf} over {@code nodes}; empty when the tiers have deviceshare or no node offers slots. */
  public static Optional<String> warning(SchedulerConf conf, Collection<Node> nodes) {
    if (conf.allPlugins().stream().map(PluginOption::name).anyMatch(DEVICESHARE::equals)) {
      return Optional.empty();
    }
    List<String> slotted = new ArrayList<>();
    for (Node n : nodes) {
      if (offersSlots(n)) {
        slotted.add(n.name());
      }
    }
    if (slotted.isEmpty()) {
      return Optional.empty();
    }
    Collections.sort(slotted); // the same names whatever order the nodes came in
    String named = String.join(", ", slotted.subList(0, Math.min(NAMED, slotted.size())))
        + (slotted.size() > NAMED ? " and " + (slotted.size() - NAMED) + " more" : "");
    return Optional.of(slotted.size() + " node(s) offer vGPU slots (HAMi form: nvidia.com/gpu above the GPUs they "
        + "list): " + named + "; without deviceshare in the tiers no GPU-share pod (nvidia.com/gpucores, gpumem) "
        + "is placed. Add deviceshare to the tiers, see config/gpu-cluster.conf");
  }

  /** True when the node's GPU allocatable is above the devices its inventory lists; false without an inventory. */
  static boolean offersSlots(Node node) {
    long allocatable = 0;
    for (String r : GpuResources.DEFAULT) {
      allocatable += node.allocatable().get(r);
    }
    if (allocatable <= 0) {
      return false;
    }
    try {
      GpuTopology t = io.basalt.gpu.protocol.DeviceProtocols.topology(node.annotations());
      return t != null && t.size() > 0 && allocatable > t.size();
    } catch (IllegalArgumentException e) {
      return false; // the cache names a malformed inventory itself
    }
  }

  /**
   * For {@code basalt run}: the profile each cycle reads, checked (and the warning logged) when the config changes
   * and, until it warns, when the number of nodes does; once per config at most.
   */
  public static Supplier<SchedulerProfile> watching(Supplier<SchedulerProfile> profiles, ClusterCache cache,
      System.Logger log) {
    return watching(profiles, SchedulerProfile::conf, cache, log);
  }

  static <T> Supplier<T> watching(Supplier<T> profiles, Function<T, SchedulerConf> conf, ClusterCache cache,
      System.Logger log) {
    return new Supplier<>() {
      private T last;
      private int nodes = -1;
      private boolean warned;

      @Override
      public T get() {
        T p = profiles.get();
        if (p != last) {
          last = p;
          warned = false;
          nodes = -1;
        }
        int n = cache.nodeCount();
        if (!warned && n != nodes) {
          nodes = n;
          Optional<String> w = warning(conf.apply(p), cache.nodes());
          w.ifPresent(text -> log.log(System.Logger.Level.WARNING, text));
          warned = w.isPresent();
        }
        return p;
      }
    };
  }
}
