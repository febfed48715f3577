package io.basalt.session;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.model.NamespaceQuota;
import io.basalt.model.Pod;
import io.basalt.model.Quantities;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why a gang short of pods never starts when its namespace's ResourceQuota is the cause. The API server refuses to
 * create a pod past a quota's {@code spec.hard}, so a gang whose {@code minMember} pods cannot all fit the quota
 * beside the namespace's other pods waits forever with fewer pods than it needs; saying "fewer than minMember" would
 * hide why. Worked out once per session, only when the snapshot states quotas, for jobs with fewer valid pods than
 * {@code minMember}; the reason takes the place of the gang plugin's (no tiers can turn the API server off).
 */
final class QuotaCheck {
  private QuotaCheck() {}

  /** Adds the quota reason of each job it applies to into {@code invalid} (keeping a reason already there). */
  static void reasons(ClusterSnapshot snapshot, List<JobInfo> jobs, Map<String, String> invalid) {
    if (snapshot.quotas().isEmpty()) {
      return;
    }
    Set<String> namespaces = new HashSet<>();
    snapshot.quotas().forEach(q -> namespaces.add(q.namespace()));
    List<JobInfo> short_ = jobs.stream().filter(j -> j.validTaskNum() < j.minMember() && !j.tasks().isEmpty()
        && j.gatedTaskNum() == 0 && namespaces.contains(j.tasks().get(0).pod().namespace())).toList();
    if (short_.isEmpty()) {
      return;
    }
    // Every pod of those namespaces that holds quota: this scheduler's (pending or placed) and others' placed ones.
    Map<String, Pod> counted = new HashMap<>();
    for (Pod p : snapshot.pods()) {
      if (namespaces.contains(p.namespace()) && !p.isFinished()) {
        counted.put(p.uid(), p);
      }
    }
    for (NodeInfo n : snapshot.nodes()) {
      for (Pod p : snapshot.podsOn(n.name())) {
        if (namespaces.contains(p.namespace()) && !p.isFinished()) {
          counted.putIfAbsent(p.uid(), p);
        }
      }
    }
    for (JobInfo job : short_) {
      String reason = reason(snapshot.quotas(), counted.values(), job);
      if (reason != null) {
        invalid.putIfAbsent(job.key(), reason);
      }
    }
  }

  private static String reason(List<NamespaceQuota> quotas, Iterable<Pod> counted, JobInfo job) {
    Set<String> own = new HashSet<>();
    ResourceVector need = ResourceVector.ZERO;
    Pod shape = null;
    for (TaskInfo t : job.tasks()) {
      own.add(t.pod().uid());
      need = need.plus(t.pod().request());
      shape = shape == null ? t.pod() : shape;
    }
    int missing = job.minMember() - job.tasks().size();
    for (int i = 0; i < missing; i++) { // the pods not created are taken to be like the first one
      need = need.plus(shape.request());
    }
    for (NamespaceQuota q : quotas) {
      if (!q.counts(shape)) {
        continue;
      }
      for (Map.Entry<String, Long> h : q.hard().entrySet()) {
        String r = h.getKey();
        long others = 0;
        for (Pod p : counted) {
          if (!own.contains(p.uid()) && q.counts(p)) {
            others += p.request().get(r);
          }
        }
        long gang = need.get(r);
        if (gang > 0 && others + gang > h.getValue()) {
          return "ResourceQuota " + q.key() + " allows " + key(r) + " " + fmt(r, h.getValue()) + " in namespace "
              + q.namespace() + " (" + fmt(r, others) + " used by other pods): the gang's " + job.minMember()
              + " pods need " + fmt(r, gang) + ", so the API server refuses "
              + (missing > 0 ? missing + " of them" : "some of them") + " (PodGroup " + job.key() + " has "
              + job.validTaskNum() + " valid pods of minMember " + job.minMember() + ")";
        }
      }
    }
    return null;
  }

  private static String key(String resource) {
    return resource.equals(ResourceNames.PODS_NAME) ? "pods" : "requests." + resource;
  }

  private static String fmt(String resource, long amount) {
    int i = ResourceNames.indexIfKnown(resource);
    return i < 0 || resource.equals(ResourceNames.PODS_NAME) ? Long.toString(amount) : Quantities.format(i, amount);
  }
}
