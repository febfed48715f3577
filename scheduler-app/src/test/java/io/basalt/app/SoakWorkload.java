package io.basalt.app;

import io.basalt.kube.fake.FakeApiServer;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault soak's cluster and pods, in namespace {@code soak}: nodes of 8 GPUs, 48 cpu and 192 Gi, and waves of
 * four-pod gangs (PodGroup minMember 4, 1 or 2 GPUs a pod), single-GPU pods and CPU-only pods. A GPU pod asks 4 cpu
 * and 16 Gi per GPU, so a node full of GPU pods still has 16 cpu for CPU-only pods (4 cpu, 8 Gi each). The pods ask
 * for about 10% more GPUs and cpu than the cluster has, so nodes fill up and some pods stay pending: room
 * wrongly thought free is taken at once, and shows as an overcommitted node.
 */
record SoakWorkload(int nodes, int waves, int gangsPerWave, int gpuPodsPerWave, int cpuPodsPerWave) {
  static final String NAMESPACE = "soak";
  static final int GANG_SIZE = 4;

  /** The issue's size: 250 nodes, 200 gangs (800 pods), 1,000 single-GPU and 1,200 CPU-only pods in 10 waves. */
  static SoakWorkload issueSize() {
    return new SoakWorkload(250, 10, 20, 100, 120);
  }

  int gangs() {
    return waves * gangsPerWave;
  }

  int pods() {
    return waves * (gangsPerWave * GANG_SIZE + gpuPodsPerWave + cpuPodsPerWave);
  }

  void seedNodes(FakeApiServer server) {
    for (int n = 0; n < nodes; n++) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-" + n + "\"},"
          + "\"status\":{\"allocatable\":{\"cpu\":\"48\",\"memory\":\"192Gi\",\"pods\":\"110\","
          + "\"nvidia.com/gpu\":\"8\"}}}");
    }
  }

  /** Seeds wave {@code w}: its PodGroups first, then their members, the single-GPU pods and the CPU-only pods. */
  List<String> seedWave(FakeApiServer server, int w) {
    List<String> names = new ArrayList<>();
    for (int g = 0; g < gangsPerWave; g++) {
      String group = "gang-" + (w * gangsPerWave + g);
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{"
          + "\"name\":\"" + group + "\",\"namespace\":\"" + NAMESPACE + "\"},\"spec\":{\"minMember\":" + GANG_SIZE
          + "}}");
      for (int m = 0; m < GANG_SIZE; m++) {
        names.add(seedPod(server, group + "-" + m, group, 1 + g % 2, 0));
      }
    }
    for (int i = 0; i < gpuPodsPerWave; i++) {
      names.add(seedPod(server, "gpu-" + (w * gpuPodsPerWave + i), null, 1, 0));
    }
    for (int i = 0; i < cpuPodsPerWave; i++) {
      names.add(seedPod(server, "cpu-" + (w * cpuPodsPerWave + i), null, 0, 4));
    }
    return names;
  }

  private static String seedPod(FakeApiServer server, String name, String group, int gpus, int cpuOnly) {
    String cpu = gpus > 0 ? Integer.toString(4 * gpus) : Integer.toString(cpuOnly);
    String memory = gpus > 0 ? 16 * gpus + "Gi" : "8Gi";
    String resources = "{\"cpu\":\"" + cpu + "\",\"memory\":\"" + memory + "\""
        + (gpus > 0 ? ",\"nvidia.com/gpu\":\"" + gpus + "\"" : "") + "}";
    String annotations = group == null ? "{}" : "{\"scheduling.k8s.io/group-name\":\"" + group + "\"}";
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
        + NAMESPACE + "\",\"annotations\":" + annotations + "},\"spec\":{\"schedulerName\":\"basalt-scheduler\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"requests\":" + resources
        + ",\"limits\":" + resources + "}}]}}");
    return name;
  }
}
