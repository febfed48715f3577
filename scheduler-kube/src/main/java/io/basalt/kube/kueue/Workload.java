package io.basalt.kube.kueue;

import io.basalt.kube.gang.GroupInference;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.model.Pod;
import io.basalt.model.PriorityClass;
import io.basalt.model.QueueRequest;
import io.basalt.model.ResourceNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Kueue workload: the pods Kueue admits together (a Job's, a JobSet's, a Kueue pod group's, or one plain pod),
 * the LocalQueue its {@code kueue.x-k8s.io/queue-name} label names (on the pods or their workload object), its
 * priority and age.
 *
 * @param key e.g. {@code Job ml-research/distributed-training}
 * @param suspended whether its object is {@code suspend: true} (its pods were expanded only for admission)
 * @param ownGang whether its pods already say their gang's size (a Kueue pod group's total count)
 */
record Workload(String key, String namespace, String localQueue, List<Pod> pods, int priority, Instant created,
    boolean suspended, boolean ownGang) {
  /** Kueue's label naming a WorkloadPriorityClass. */
  static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";

  /** Whether any of its pods holds a node: admitted before (by Kueue or an earlier run). */
  boolean running() {
    return pods.stream().anyMatch(p -> p.isAssigned() && !p.isFinished());
  }

  /** The summed requests of its pods (the pod slot aside), by resource. */
  Map<String, Long> request() {
    Map<String, Long> r = new LinkedHashMap<>();
    for (Pod p : pods) {
      p.request().toMap().forEach((name, v) -> {
        if (!name.equals(ResourceNames.PODS_NAME) && v > 0) {
          r.merge(name, v, Long::sum);
        }
      });
    }
    return r;
  }

  /**
   * The Kueue workloads among {@code pods}, in the order their first pods come; pods naming no Kueue queue are in
   * none.
   */
  static List<Workload> of(List<Pod> pods, List<OwnerObject> owners, List<PriorityClass> priorityClasses,
      Map<String, Integer> workloadPriorities) {
    Map<String, OwnerObject> byUid = new HashMap<>();
    Map<String, OwnerObject> byKindName = new HashMap<>();
    for (OwnerObject o : owners) {
      byUid.put(o.uid(), o);
      byKindName.put(o.kind() + " " + o.namespace() + "/" + o.name(), o);
    }
    Map<String, Integer> classes = new HashMap<>();
    priorityClasses.forEach(pc -> classes.put(pc.name(), pc.value()));
    Map<String, List<Pod>> members = new LinkedHashMap<>();
    Map<String, OwnerObject> ownerOf = new HashMap<>();
    Map<String, String> queueOf = new HashMap<>();
    for (Pod p : pods) {
      String jobSet = p.labels().get(GroupInference.JOBSET_LABEL);
      String group = p.labels().get(GroupInference.KUEUE_GROUP_LABEL);
      OwnerObject owner;
      String key;
      if (group != null && !group.isBlank()) {
        key = "pod group " + p.namespace() + "/" + group;
        owner = null;
      } else if (jobSet != null && !jobSet.isBlank()) {
        key = "JobSet " + p.namespace() + "/" + jobSet;
        owner = byKindName.get(key);
      } else if (p.controller() != null && p.controller().uid() != null
          && byUid.containsKey(p.controller().uid())) {
        owner = byUid.get(p.controller().uid());
        key = owner.kind() + " " + owner.namespace() + "/" + owner.name();
      } else {
        key = "Pod " + p.key();
        owner = null;
      }
      String queue = p.labels().get(QueueRequest.KUEUE_LABEL);
      if ((queue == null || queue.isBlank()) && owner != null) {
        queue = owner.labels().get(QueueRequest.KUEUE_LABEL);
      }
      if (queue == null || queue.isBlank()) {
        continue;
      }
      members.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
      queueOf.putIfAbsent(key, queue);
      if (owner != null) {
        ownerOf.putIfAbsent(key, owner);
      }
    }
    List<Workload> out = new ArrayList<>();
    for (Map.Entry<String, List<Pod>> e : members.entrySet()) {
      List<Pod> ps = e.getValue();
      Pod first = ps.get(0);
      OwnerObject owner = ownerOf.get(e.getKey());
      String wpc = first.labels().get(PRIORITY_CLASS_LABEL);
      if (wpc == null && owner != null) {
        wpc = owner.labels().get(PRIORITY_CLASS_LABEL);
      }
      int priority;
      if (wpc != null && workloadPriorities.containsKey(wpc)) {
        priority = workloadPriorities.get(wpc);
      } else if (first.priority() != null) {
        priority = first.priority();
      } else {
        priority = classes.getOrDefault(first.priorityClassName() == null ? "" : first.priorityClassName(), 0);
      }
      Instant created = owner != null ? owner.creationTimestamp() : null;
      for (Pod p : ps) {
        if (created == null || p.creationTimestamp() != null && p.creationTimestamp().isBefore(created)) {
          created = p.creationTimestamp();
        }
      }
      boolean suspended = ps.stream().anyMatch(p -> p.annotations().containsKey(KueueAdmission.SUSPENDED));
      boolean ownGang = first.labels().containsKey(GroupInference.KUEUE_GROUP_LABEL)
          || first.annotations().containsKey(GroupInference.MIN_MEMBER_ANNOTATION);
      out.add(new Workload(e.getKey(), first.namespace(), queueOf.get(e.getKey()), List.copyOf(ps), priority,
          created, suspended, ownGang));
    }
    return out;
  }
}
