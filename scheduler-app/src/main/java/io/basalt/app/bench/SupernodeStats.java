package io.basalt.app.bench;

import io.basalt.fabric.Fabric;
import io.basalt.model.NetworkTopology;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the gangs and the free GPUs ended up on a supernode cluster, judged from the bound pods and the fabric alone
 * (not from what the scheduler says it did), so runs with and without the topology plugin compare on the same terms.
 *
 * @param gangsBound gangs with at least minMember pods bound
 * @param gangsInDragonflies of those, gangs whose every communication group (ranks in pod-name order, {@code
 *     gpu-group-size} / GPUs per pod of them) sits inside one dragonfly
 * @param multiGroupGangsBound bound gangs of two or more groups
 * @param multiGroupGangsInOneSwitchbox of those, gangs whose pods all sit inside one switchbox
 * @param freeDragonflies dragonflies none of whose nodes has a GPU in use at the end
 * @param dragonflies dragonflies in the cluster
 */
record SupernodeStats(int gangsBound, int gangsInDragonflies, int multiGroupGangsBound,
    int multiGroupGangsInOneSwitchbox, int freeDragonflies, int dragonflies) {

  double gangsInDragonfliesPercent() {
    return gangsBound == 0 ? 100 : 100.0 * gangsInDragonflies / gangsBound;
  }

  double multiGroupInOneSwitchboxPercent() {
    return multiGroupGangsBound == 0 ? 100 : 100.0 * multiGroupGangsInOneSwitchbox / multiGroupGangsBound;
  }

  static SupernodeStats of(Workload workload, Fabric fabric, List<Pod> pods) {
    String gpu = workload.gpuResource();
    Map<String, List<Pod>> byGang = new HashMap<>();
    Set<String> gpuInUse = new HashSet<>();
    for (Pod p : pods) {
      if (!p.isAssigned()) {
        continue;
      }
      if (p.request().get(gpu) > 0) {
        gpuInUse.add(fabric.domainOf(p.nodeName(), 1));
      }
      if (p.groupName() != null) {
        byGang.computeIfAbsent(p.groupName(), g -> new ArrayList<>()).add(p);
      }
    }
    int bound = 0;
    int grouped = 0;
    int multi = 0;
    int oneSwitchbox = 0;
    for (PodGroup pg : workload.podGroups()) {
      List<Pod> members = byGang.getOrDefault(pg.name(), List.of());
      if (members.size() < pg.minMember()) {
        continue;
      }
      bound++;
      members.sort(Comparator.comparing(Pod::name));
      int perGroup = podsPerGroup(members.get(0), gpu);
      boolean inDragonflies = true;
      for (int i = 0; i < members.size(); i += perGroup) {
        inDragonflies &= domains(fabric, members.subList(i, Math.min(members.size(), i + perGroup)), 1).size() == 1;
      }
      if (inDragonflies) {
        grouped++;
      }
      if (members.size() > perGroup) {
        multi++;
        if (domains(fabric, members, 2).size() == 1) {
          oneSwitchbox++;
        }
      }
    }
    List<String> all = fabric.domains(1);
    int free = 0;
    for (String d : all) {
      if (!gpuInUse.contains(d)) {
        free++;
      }
    }
    return new SupernodeStats(bound, grouped, multi, oneSwitchbox, free, all.size());
  }

  /** Pods per communication group: the group size over the pod's GPUs; the whole gang without the annotation. */
  private static int podsPerGroup(Pod pod, String gpu) {
    String size = pod.annotations().get(NetworkTopology.GPU_GROUP_SIZE_ANNOTATION);
    long perPod = pod.request().get(gpu);
    if (size == null || perPod == 0) {
      return Integer.MAX_VALUE;
    }
    return (int) Math.max(1, Long.parseLong(size) / perPod);
  }

  private static Set<String> domains(Fabric fabric, List<Pod> pods, int tier) {
    Set<String> out = new HashSet<>();
    for (Pod p : pods) {
      out.add(String.valueOf(fabric.domainOf(p.nodeName(), tier)));
    }
    return out;
  }
}
