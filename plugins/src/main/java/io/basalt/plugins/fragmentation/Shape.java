package io.basalt.plugins.fragmentation;

import io.basalt.api.CycleState;
import io.basalt.api.TaskInfo;
import io.basalt.gpu.DeviceConstraints;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.ShareSize;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pod asks of a GPU node, as the fragmentation measure sees it: cpu (milli) and memory (bytes), and either
 * {@code whole} GPUs or one share of {@code cores} percent of a GPU; {@code rules} keeps the pod's HAMi device
 * annotations ({@code use-gputype} ...) so shapes that differ only there stay apart. Pods asking for no GPU have no
 * shape: they fragment nothing themselves, only through the cpu and memory they take.
 */
record Shape(long cpu, long memory, int whole, int cores, long memoryMiB, String domain, Map<String, String> rules) {
  /** A total order for ties in the mix: the numbers, then the domain and rules as text (rare, so cheap enough). */
  static final Comparator<Shape> ORDER = Comparator.comparingInt(Shape::whole).thenComparingInt(Shape::cores)
      .thenComparingLong(Shape::cpu).thenComparingLong(Shape::memory).thenComparingLong(Shape::memoryMiB)
      .thenComparing(Shape::domain).thenComparing(s -> s.rules().toString());

  /** A share pod's GPU amount, or a whole pod's, in percent of one GPU. */
  int gpuPercent() {
    return whole > 0 ? whole * 100 : cores;
  }

  boolean share() {
    return whole == 0;
  }

  DeviceConstraints constraints() {
    return rules.isEmpty() ? DeviceConstraints.NONE : DeviceConstraints.of(rules, List.of(domain));
  }

  /** The shape of {@code task}, or null when it asks for no GPU (or for one it cannot have: over 100%). */
  private static final CycleState.Key<Shape> KEY = CycleState.key("fragmentation shape");

  static Shape of(TaskInfo task) {
    return task.cycleState(KEY, Shape::read);
  }

  private static Shape read(TaskInfo task) {
    ResourceVector r = task.request();
    long cpu = r.get(ResourceNames.CPU);
    long memory = r.get(ResourceNames.MEMORY);
    if (GpuResources.isShare(r)) {
      boolean metax = ShareSize.metax(r);
      long cores = ShareSize.cores(r);
      long mib = ShareSize.askedMemoryMiB(r); // 0: the whole memory of the device it gets
      if (cores > 100) {
        return null;
      }
      String domain = metax ? "metax-tech.com" : "nvidia.com";
      return new Shape(cpu, memory, 0, (int) Math.max(1, cores), mib, domain, rules(task, domain));
    }
    long whole = 0;
    for (String gpu : GpuResources.DEFAULT) {
      whole += r.get(gpu);
    }
    if (whole <= 0) {
      return null;
    }
    String domain = r.get(GpuResources.DEFAULT.get(0)) > 0 ? "nvidia.com" : "metax-tech.com";
    return new Shape(cpu, memory, (int) Math.min(whole, GpuAnnotations.MAX_DEVICES + 1), 0, 0, domain, rules(task, domain));
  }

  private static Map<String, String> rules(TaskInfo task, String domain) {
    Map<String, String> out = null;
    for (Map.Entry<String, String> a : task.pod().annotations().entrySet()) {
      String k = a.getKey();
      if (k.startsWith(domain + "/") && (k.endsWith("-gputype") || k.endsWith("-gpuuuid"))) {
        if (out == null) {
          out = new TreeMap<>();
        }
        out.put(k, a.getValue());
      }
    }
    return out == null ? Map.of() : Map.copyOf(out);
  }
}
