package io.basalt.testing;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.cache.ClusterCache;
import io.basalt.config.Arguments;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.ConfiguredPlugin;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.SessionProfile;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Opens real sessions over a small in-memory cluster, so plugin tests exercise the same registration and tier
 * combination the scheduler uses:
 * <pre>
 * Session s = TestSessions.cluster().node(n1).pod(p1).open(registry, "actions: allocate\ntiers: ...");
 * </pre>
 */
public final class TestSessions {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler", "volcano"), Queue.DEFAULT);

  public static TestSessions cluster() {
    return new TestSessions();
  }

  /**
   * Twenty nodes {@code n0..n19} of random cpu and memory (some with none; every third with 8 GPUs), each running a
   * random pod {@code r0..r19}, and twenty pending pods {@code p0..p19} of random requests: every fifth asks no cpu,
   * every seventh no memory, and {@code p3, p7, ...} (index % 4 == 3) one GPU. For comparing two forms of a score.
   */
  public static TestSessions randomResources(long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    TestSessions cluster = cluster();
    for (int n = 0; n < 20; n++) {
      String name = "n" + n;
      TestNodes node = TestNodes.node(name).cpu(String.valueOf(r.nextInt(0, 97))).memory(r.nextInt(0, 1025) + "Gi");
      cluster.node((n % 3 == 0 ? node.gpu(8) : node).build());
      cluster.pod(TestPods.pod("r" + n).cpu(r.nextInt(0, 16000) + "m").memory(r.nextInt(0, 256) + "Gi")
          .onNode(name).build());
    }
    for (int p = 0; p < 20; p++) {
      TestPods pod = TestPods.pod("p" + p).cpu(p % 5 == 0 ? "0" : r.nextInt(1, 40000) + "m")
          .memory(p % 7 == 0 ? "0" : r.nextInt(1, 300) + "Gi");
      cluster.pod((p % 4 == 3 ? pod.gpu(1) : pod).build());
    }
    return cluster;
  }

  public TestSessions node(Node n) {
    cache.putNode(n);
    return this;
  }

  public TestSessions pod(Pod p) {
    cache.putPod(p);
    return this;
  }

  public TestSessions podGroup(PodGroup pg) {
    cache.putPodGroup(pg);
    return this;
  }

  public TestSessions queue(Queue q) {
    cache.putQueue(q);
    return this;
  }

  public TestSessions priorityClass(PriorityClass pc) {
    cache.putPriorityClass(pc);
    return this;
  }

  public ClusterCache cache() {
    return cache;
  }

  /** Opens a session with {@code conf} (YAML text of a volcano-scheduler.conf). */
  public Session open(PluginRegistry registry, String conf) {
    return Session.open(cache.snapshot(), sessionProfile(registry, parse(conf)), ExplainRecorder.NONE);
  }

  /**
   * What a session opens with, built without the config checks (tests configure fakes freely): each tier entry's
   * arguments read by its descriptor, argument problems ignored.
   */
  public static SessionProfile sessionProfile(PluginRegistry registry, SchedulerConf conf) {
    List<ConfiguredPlugin<?>> entries = new ArrayList<>();
    for (int t = 0; t < conf.tiers().size(); t++) {
      for (PluginOption o : conf.tiers().get(t).plugins()) {
        entries.add(registry.descriptor(o.name()).configure(o, t, new Arguments(o.arguments(), o.location())));
      }
    }
    return new SessionProfile(conf, entries);
  }

  public static SchedulerConf parse(String conf) {
    try {
      return ConfLoader.parse(conf, "test");
    } catch (ConfigException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** A conf with one tier holding just {@code plugin} with the given YAML arguments block (may be empty). */
  public static String singlePlugin(String plugin, String argumentsYaml) {
    String args = argumentsYaml.isBlank() ? "" : "\n    arguments:\n" + argumentsYaml.indent(6).stripTrailing();
    return "actions: \"enqueue, allocate, backfill\"\ntiers:\n- plugins:\n  - name: " + plugin + args + "\n";
  }

  /** The session's task for pod {@code key} (ns/name). */
  public static TaskInfo task(Session s, String key) {
    return s.jobs().stream().flatMap(j -> j.tasks().stream()).filter(t -> t.key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError("no task " + key));
  }

  public static NodeInfo nodeInfo(Session s, String name) {
    NodeInfo n = s.node(name);
    if (n == null) {
      throw new AssertionError("no node " + name);
    }
    return n;
  }
}
