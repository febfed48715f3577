package io.basalt.app.replay;

import io.basalt.app.replay.OpenbTrace.TraceNode;
import io.basalt.app.replay.OpenbTrace.TracePod;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.kube.ManifestReader;
import io.basalt.kube.Manifests;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A trace written as Kubernetes objects: Nodes and Pods in YAML or JSON (a file or a folder of them), each pod's
 * arrival its {@code metadata.creationTimestamp}, its departure its {@code metadata.deletionTimestamp} (none: it
 * stays until after the trace's last event), its production start {@code status.startTime} when given. It becomes the same {@link OpenbTrace} the CSVs
 * give, so both replay alike: a node keeps its CPU, memory, GPU count and model (GPUs from its device annotation,
 * else {@code nvidia.com/gpu}; the model of its first device, else the {@code nvidia.com/gpu.product} label); a pod
 * keeps its requests, a share ({@code nvidia.com/gpucores} with one GPU) and its {@code nvidia.com/use-gputype}.
 * Selectors, affinities and tolerations are not replayed: the replay measures packing, which the trace's requests
 * decide.
 */
final class KubeTrace {
  static final String MODEL_LABEL = "nvidia.com/gpu.product";
  private static final String UNKNOWN_MODEL = "unknown";

  private KubeTrace() {}

  /**
   * Reads the Nodes and Pods under {@code path}; other kinds are ignored. Objects that cannot be read are named on
   * {@code err} and left out; a trace with no node or no pod is refused.
   */
  static OpenbTrace read(Path path, PrintWriter err) throws IOException {
    Manifests m = new ManifestReader().read(path);
    m.errors().forEach(e -> err.println("replay: " + e));
    List<TraceNode> nodes = new ArrayList<>();
    for (V1Node n : m.nodes()) {
      TraceNode node = node(n, m.origin(n), err);
      if (node != null) {
        nodes.add(node);
      }
    }
    List<V1Pod> v1pods = m.pods();
    long base = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (V1Pod p : v1pods) {
      base = Math.min(base, seconds(p.getMetadata().getCreationTimestamp()));
      end = Math.max(end, seconds(p.getMetadata().getCreationTimestamp()));
      end = Math.max(end, seconds(p.getMetadata().getDeletionTimestamp()));
    }
    List<TracePod> pods = new ArrayList<>();
    for (V1Pod p : v1pods) {
      TracePod pod = pod(p, base, end + 1 - base, m.origin(p), err);
      if (pod != null) {
        pods.add(pod);
      }
    }
    if (nodes.isEmpty() || pods.isEmpty()) {
      throw new IllegalArgumentException(path + ": a trace needs Nodes and Pods, found " + nodes.size()
          + " nodes and " + pods.size() + " pods");
    }
    return new OpenbTrace(nodes, pods);
  }

  private static TraceNode node(V1Node n, String where, PrintWriter err) {
    V1ObjectMeta meta = n.getMetadata();
    Map<String, Quantity> allocatable = n.getStatus() == null || n.getStatus().getAllocatable() == null
        ? Map.of() : n.getStatus().getAllocatable();
    Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    int gpus = (int) whole(allocatable.get(GpuResources.DEFAULT.get(0)));
    String model = labels.getOrDefault(MODEL_LABEL, UNKNOWN_MODEL);
    try {
      GpuTopology topology = io.basalt.gpu.protocol.DeviceProtocols.topology(annotations);
      if (topology != null && topology.size() > 0) {
        gpus = topology.size();
        String first = topology.device(0).model();
        if (first != null && !first.isEmpty()) {
          model = first;
        }
      }
    } catch (IllegalArgumentException e) {
      err.println("replay: " + where + ": Node " + meta.getName() + ": " + e.getMessage()
          + "; its GPUs counted from allocatable");
    }
    return new TraceNode(meta.getName(), milli(allocatable.get("cpu")), mebibytes(allocatable.get("memory")), gpus,
        model);
  }

  /** {@code end}: seconds after {@code base} when a pod with no deletion time leaves, after every other event. */
  private static TracePod pod(V1Pod p, long base, long end, String where, PrintWriter err) {
    V1ObjectMeta meta = p.getMetadata();
    String name = (meta.getNamespace() == null ? "default" : meta.getNamespace()) + "/" + meta.getName();
    long cpu = 0;
    long memory = 0;
    long gpus = 0;
    long cores = 0;
    if (p.getSpec() != null && p.getSpec().getContainers() != null) {
      for (V1Container c : p.getSpec().getContainers()) {
        Map<String, Quantity> req = requests(c);
        cpu += milli(req.get("cpu"));
        memory += mebibytes(req.get("memory"));
        gpus += whole(req.get(GpuResources.DEFAULT.get(0)));
        cores += whole(req.get(GpuResources.NVIDIA_CORES));
      }
    }
    int milli = 1000;
    if (cores > 0 && cores < 100) {
      if (gpus != 1) {
        err.println("replay: " + where + ": Pod " + name + ": " + GpuResources.NVIDIA_CORES + " " + cores
            + " with " + gpus + " GPUs: the replay keeps shares of one GPU only; left out");
        return null;
      }
      milli = (int) cores * 10;
    }
    Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    String spec = annotations.getOrDefault(HamiForm.USE_GPUTYPE, "").replace(',', '|');
    long creation = seconds(meta.getCreationTimestamp()) - base;
    long deletion = meta.getDeletionTimestamp() == null ? end
        : Math.max(creation, seconds(meta.getDeletionTimestamp()) - base);
    long started = p.getStatus() == null || p.getStatus().getStartTime() == null ? -1
        : Math.max(creation, seconds(p.getStatus().getStartTime()) - base);
    return new TracePod(name, cpu, memory, (int) gpus, gpus == 0 ? 0 : milli, spec, creation, deletion, started);
  }

  /** Requests, or limits where a resource has no request (Kubernetes defaults the one to the other). */
  private static Map<String, Quantity> requests(V1Container c) {
    if (c.getResources() == null) {
      return Map.of();
    }
    Map<String, Quantity> out = new HashMap<>();
    if (c.getResources().getLimits() != null) {
      out.putAll(c.getResources().getLimits());
    }
    if (c.getResources().getRequests() != null) {
      out.putAll(c.getResources().getRequests());
    }
    return out;
  }

  private static long seconds(OffsetDateTime t) {
    return t == null ? 0 : t.toEpochSecond();
  }

  private static long milli(Quantity q) {
    return q == null ? 0 : q.getNumber().multiply(BigDecimal.valueOf(1000)).longValue();
  }

  private static long mebibytes(Quantity q) {
    return q == null ? 0 : q.getNumber().divide(BigDecimal.valueOf(1L << 20), RoundingMode.CEILING)
        .longValue();
  }

  private static long whole(Quantity q) {
    return q == null ? 0 : q.getNumber().longValue();
  }
}
