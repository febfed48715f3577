package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuDevice;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 35's invariant: whatever the cluster, no GPU's memory or compute is ever handed out beyond what it has, counted
 * as its device plugin counts it. Random clusters (fixed seeds) of HAMi NVIDIA nodes, MetaX sGPU nodes and nodes with
 * Basalt's own topology, with whole-GPU pods and shares in every form (compute only, memory only, both, neither), are
 * plus HAMi's {@code gpumem-percentage} and 100% compute, are simulated under every shipped config until nothing changes; then every device's holders are summed from what the
 * binds wrote: HAMi's {@code *-devices-to-allocate} entries where HAMi's protocol speaks (they are what its device
 * plugin enforces), and for Basalt's protocol the pod's request, a share without memory holding the whole device.
 */
class ShareInvariantTest {
  private static final int CLUSTERS = 12;
  private static final long[] NVIDIA_MIB = {16384, 40960, 81920};

  /** A node's devices as the test wrote them: its form, and each device's UUID and memory. */
  private record NodeSpec(String name, String form, List<String> uuids, long memoryMiB) {}

  @Test
  void noDeviceIsOversubscribedUnderAnyShippedConfig() throws Exception {
    List<Path> confs;
    try (Stream<Path> s = Files.list(Scenarios.fixture("../config").normalize())) {
      confs = s.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
    }
    assertTrue(confs.size() >= 5, confs.toString());
    int placedShares = 0;
    for (Path conf : confs) {
      Simulator sim = new Simulator(Scenarios.compile(ConfLoader.load(conf)), Set.of("basalt-scheduler"), false);
      for (int seed = 1; seed <= CLUSTERS; seed++) {
        Random rnd = new Random(seed * 7919L + conf.getFileName().toString().hashCode());
        List<NodeSpec> nodes = new ArrayList<>();
        Map<String, Map<String, String>> requests = new HashMap<>();
        String yaml = cluster(rnd, nodes, requests);
        SimulationReport r = sim.run(FixtureSource.fromText("seed-" + seed + ".yaml", yaml));
        placedShares += check(conf.getFileName() + " seed " + seed, r, nodes, requests);
      }
    }
    assertTrue(placedShares > 50, "the clusters must place shares for the invariant to mean anything: "
        + placedShares);
  }

  /** Asserts the invariant on {@code r}; returns how many shares it placed. */
  private static int check(String where, SimulationReport r, List<NodeSpec> nodes,
      Map<String, Map<String, String>> requests) {
    Map<String, NodeSpec> byName = new HashMap<>();
    nodes.forEach(n -> byName.put(n.name(), n));
    Set<String> evicted = new HashSet<>();
    r.evicted().forEach(e -> evicted.add(e.pod()));
    Map<String, long[]> used = new HashMap<>(); // node/device -> {memory MiB, cores, holders, whole holders}
    int shares = 0;
    for (SimulationReport.Bound b : r.bindings()) {
      if (evicted.contains(b.pod()) || b.devices().isEmpty()) {
        continue;
      }
      NodeSpec n = byName.get(b.node());
      Map<String, String> req = requests.get(b.pod());
      boolean share = req.keySet().stream().anyMatch(k -> k.endsWith("gpucores") || k.endsWith("gpumem")
          || k.endsWith("gpumem-percentage") || k.startsWith("metax-tech.com/"));
      String hami = b.annotations().get(n.form().equals("metax") ? "hami.io/metax-sgpu-devices-to-allocate"
          : "hami.io/vgpu-devices-to-allocate");
      if (share) {
        shares++;
      }
      if (!n.form().equals("topology")) {
        assertTrue(hami != null, where + ": " + b.pod() + " on " + n.name() + " has no HAMi annotation: "
            + b.annotations());
      }
      if (share && hami != null) {
        for (String container : hami.split(";")) {
          for (String entry : container.split(":")) {
            if (entry.isBlank()) {
              continue;
            }
            String[] f = entry.split(",");
            int d = n.uuids().indexOf(f[0]);
            assertTrue(d >= 0, where + ": unknown device " + entry);
            if (n.form().equals("hami")) {
              assertEquals(memoryOf(req, n), Long.parseLong(f[2]), where + ": " + b.pod() + " asking " + req
                  + " is written with memory other than HAMi counts: " + entry);
            }
            add(used, n.name() + "/" + d, Long.parseLong(f[2]), Long.parseLong(f[3]), false);
          }
        }
      } else {
        for (String dev : b.devices()) {
          long memory = share ? memoryOf(req, n) : n.memoryMiB();
          long cores = share ? coresOf(req) : 100;
          add(used, n.name() + "/" + dev, memory, cores, !share);
        }
      }
    }
    for (Map.Entry<String, long[]> e : used.entrySet()) {
      long[] u = e.getValue();
      NodeSpec n = byName.get(e.getKey().substring(0, e.getKey().indexOf('/')));
      assertTrue(u[0] <= n.memoryMiB(), where + ": " + e.getKey() + " holds " + u[0] + " of " + n.memoryMiB()
          + " MiB");
      assertTrue(u[1] <= 100, where + ": " + e.getKey() + " holds " + u[1] + "% compute");
      assertTrue(u[3] == 0 || u[2] == 1, where + ": " + e.getKey() + " is held whole and shared by " + u[2]);
      assertTrue(u[4] == 0 || u[2] == 1, where + ": " + e.getKey() + " has a share of 100% compute among " + u[2]
          + " holders (HAMi gives such a share its device alone)");
    }
    return shares;
  }

  private static void add(Map<String, long[]> used, String device, long memory, long cores, boolean whole) {
    long[] u = used.computeIfAbsent(device, k -> new long[5]);
    u[0] += memory;
    u[1] += cores;
    u[2]++;
    u[3] += whole ? 1 : 0;
    u[4] += !whole && cores >= 100 ? 1 : 0;
  }

  /** A Basalt-protocol share's memory: what it names, else the whole device (no plugin limits it). */
  private static long memoryOf(Map<String, String> req, NodeSpec n) {
    if (req.containsKey("nvidia.com/gpumem")) {
      return Long.parseLong(req.get("nvidia.com/gpumem"));
    }
    if (req.containsKey("nvidia.com/gpumem-percentage")) {
      return n.memoryMiB() * Long.parseLong(req.get("nvidia.com/gpumem-percentage")) / 100;
    }
    return n.memoryMiB();
  }

  private static long coresOf(Map<String, String> req) {
    return Long.parseLong(req.getOrDefault("nvidia.com/gpucores", "0"));
  }

  /** A random cluster of 2..5 nodes and 6..30 pending pods, as YAML; fills {@code nodes} and {@code requests}. */
  private static String cluster(Random rnd, List<NodeSpec> nodes, Map<String, Map<String, String>> requests) {
    StringBuilder y = new StringBuilder();
    int nodeCount = 2 + rnd.nextInt(4);
    for (int i = 0; i < nodeCount; i++) {
      int devices = 1 + rnd.nextInt(4);
      String form = List.of("hami", "metax", "topology").get(rnd.nextInt(3));
      String name = form + "-" + i;
      List<String> uuids = new ArrayList<>();
      for (int d = 0; d < devices; d++) {
        uuids.add("GPU-" + name + "-" + d);
      }
      long mib = form.equals("metax") ? 65536 : NVIDIA_MIB[rnd.nextInt(NVIDIA_MIB.length)];
      nodes.add(new NodeSpec(name, form, uuids, mib));
      y.append("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ").append(name).append("\n  annotations:\n    ");
      String allocatable;
      switch (form) {
        case "hami" -> {
          y.append("hami.io/node-nvidia-register: '[");
          for (int d = 0; d < devices; d++) {
            y.append(d == 0 ? "" : ",").append("{\"id\":\"").append(uuids.get(d)).append("\",\"index\":").append(d)
                .append(",\"count\":10,\"devmem\":").append(mib)
                .append(",\"devcore\":100,\"type\":\"NVIDIA-H100\",\"health\":true}");
          }
          y.append("]'\n");
          allocatable = "nvidia.com/gpu: \"" + devices * 10 + "\"";
        }
        case "metax" -> {
          y.append("metax-tech.com/node-gpu-devices: '[");
          for (int d = 0; d < devices; d++) {
            y.append(d == 0 ? "" : ",").append("{\"uuid\":\"").append(uuids.get(d))
                .append("\",\"model\":\"MXC500\",\"totalVRam\":").append(mib).append(",\"linkZone\":1}");
          }
          y.append("]'\n");
          allocatable = "metax-tech.com/sgpu: \"" + devices * 4 + "\"";
        }
        default -> {
          List<GpuDevice> list = new ArrayList<>();
          List<List<String>> links = new ArrayList<>();
          for (int d = 0; d < devices; d++) {
            list.add(new GpuDevice(d, uuids.get(d), "A100", mib));
            List<String> row = new ArrayList<>();
            for (int e = 0; e < devices; e++) {
              row.add(d == e ? "X" : "NV12");
            }
            links.add(row);
          }
          y.append(GpuAnnotations.TOPOLOGY).append(": '").append(GpuAnnotations.format(list, links)).append("'\n");
          allocatable = "nvidia.com/gpu: \"" + devices + "\"";
        }
      }
      y.append("status:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\", ").append(allocatable)
          .append("}\n");
    }
    int pods = 6 + rnd.nextInt(25);
    for (int i = 0; i < pods; i++) {
      Map<String, String> req = new java.util.LinkedHashMap<>();
      switch (rnd.nextInt(4)) {
        case 0 -> req.put("nvidia.com/gpu", Integer.toString(1 + rnd.nextInt(2)));
        case 1 -> {
          req.put("nvidia.com/gpu", "1");
          // compute only, memory only, both, memory percentage only, compute and percentage, all the compute
          int what = rnd.nextInt(7);
          if (what == 0 || what == 2 || what == 4) {
            req.put("nvidia.com/gpucores", Integer.toString(10 * (1 + rnd.nextInt(10))));
          }
          if (what == 1 || what == 2) {
            req.put("nvidia.com/gpumem", Integer.toString(1024 * (1 + rnd.nextInt(40))));
          }
          if (what == 3 || what == 4) {
            req.put("nvidia.com/gpumem-percentage", Integer.toString(5 * (1 + rnd.nextInt(20))));
          }
          if (what == 6) { // no compute, a little memory: beside a 100% share only if that rule is broken
            req.put("nvidia.com/gpumem", "1024");
          }
          if (what == 5) {
            req.put("nvidia.com/gpucores", "100");
            req.put("nvidia.com/gpumem", Integer.toString(1024 * (1 + rnd.nextInt(16))));
          }
        }
        default -> {
          req.put("metax-tech.com/sgpu", "1");
          int what = rnd.nextInt(4); // compute only, memory only, both, neither
          if (what == 0 || what == 2) {
            req.put("metax-tech.com/vcore", Integer.toString(10 * (1 + rnd.nextInt(10))));
          }
          if (what == 1 || what == 2) {
            req.put("metax-tech.com/vmemory", Integer.toString(1 + rnd.nextInt(40)));
          }
        }
      }
      String name = "p" + i;
      requests.put("ml/" + name, req);
      StringBuilder limits = new StringBuilder("cpu: \"1\"");
      req.forEach((k, v) -> limits.append(", ").append(k).append(": \"").append(v).append('"'));
      y.append("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ").append(name)
          .append(", namespace: ml}\nspec:\n  schedulerName: basalt-scheduler\n  containers:\n")
          .append("  - {name: c, image: x, resources: {limits: {").append(limits).append("}}}\n");
    }
    return y.toString();
  }
}
