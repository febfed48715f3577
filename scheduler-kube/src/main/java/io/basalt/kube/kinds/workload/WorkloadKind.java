package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import io.basalt.kube.gang.GroupInference;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Expansion;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.QueueRequest;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobList;
import io.kubernetes.client.util.CallGenerator;
import java.util.HashMap;
import java.util.Map;

/**
 * A workload kind owning pods (a Job, a JobSet, a Kubeflow job): in manifests it expands into what its controllers
 * would create, since a fixture states the workload and not its pods; live, the controllers have made the pods and
 * the workload is read only as their owner, whose annotations and queue shape the gang. A kind without an
 * {@link WorkloadExpander.Expander} is watched only; one whose own controller makes a PodGroup (Volcano's Job) is
 * expanded only.
 */
public final class WorkloadKind<T extends KubernetesObject> extends KindAdapter<T> {
  private static final String TRAINING = "Kubeflow training operator's";

  /** batch/v1 Job: RBAC may not grant it (an older chart), so live mode does without when it cannot list. */
  public static final WorkloadKind<V1Job> BATCH_JOB = new WorkloadKind<>("batch", "v1", "Job", "jobs", V1Job.class,
      V1JobList.class, null, Watch.IF_LISTABLE, BatchJobs::expand);
  /** Volcano's batch.volcano.sh Job: not watched, as Volcano's job controller makes the PodGroup live mode reads. */
  public static final WorkloadKind<OwnerWorkload.VolcanoJob> VOLCANO_JOB = new WorkloadKind<>("batch.volcano.sh",
      "v1alpha1", "Job", "jobs", OwnerWorkload.VolcanoJob.class, OwnerWorkload.VolcanoJobList.class, "Volcano",
      Watch.NEVER, VolcanoJobs::expand);
  public static final WorkloadKind<OwnerWorkload.JobSet> JOBSET = new WorkloadKind<>("jobset.x-k8s.io", "v1alpha2",
      "JobSet", "jobsets", OwnerWorkload.JobSet.class, OwnerWorkload.JobSetList.class, "JobSet's", Watch.IF_SERVED,
      JobSets::expand);
  public static final WorkloadKind<OwnerWorkload.PyTorchJob> PYTORCHJOB = new WorkloadKind<>("kubeflow.org", "v1",
      "PyTorchJob", "pytorchjobs", OwnerWorkload.PyTorchJob.class, OwnerWorkload.PyTorchJobList.class, TRAINING,
      Watch.IF_SERVED, TrainingJobs::expand);
  public static final WorkloadKind<OwnerWorkload.MpiJob> MPIJOB = new WorkloadKind<>("kubeflow.org", "v1", "MPIJob",
      "mpijobs", OwnerWorkload.MpiJob.class, OwnerWorkload.MpiJobList.class, TRAINING, Watch.IF_SERVED,
      TrainingJobs::expand);
  /** Kubeflow TFJob: watched as an owner; its expansion is not written, so manifests list it as skipped. */
  public static final WorkloadKind<OwnerWorkload.TfJob> TFJOB = new WorkloadKind<>("kubeflow.org", "v1", "TFJob",
      "tfjobs", OwnerWorkload.TfJob.class, OwnerWorkload.TfJobList.class, TRAINING, Watch.IF_SERVED, null);

  private final String project;
  private final Watch watch;
  private final WorkloadExpander.Expander expander;

  private WorkloadKind(String group, String version, String kind, String plural, Class<T> type,
      Class<? extends KubernetesListObject> listType, String project, Watch watch,
      WorkloadExpander.Expander expander) {
    super(group, version, kind, plural, true, type, listType);
    this.project = project;
    this.watch = watch;
    this.expander = expander;
  }

  @Override
  public void put(T workload, Records out) {
    OwnerObject owner = Conversion.owner(kind(), workload.getMetadata());
    if (workload instanceof V1Job job) {
      owner = kueueGang(job, owner);
    }
    out.owner(owner);
    if (workload instanceof V1Job job) { // after the owner: a template Kueue cannot read leaves the gang alone
      out.kueueJob(owner.namespace() + "/" + owner.name(), io.basalt.kube.kinds.kueue.KueueJobs.of(job));
    }
  }

  /**
   * A Job naming a Kueue queue runs as Kueue admitted it, whole: unless it says its gang's size itself, its gang is
   * all the pods it runs at once ({@code parallelism}, at most {@code completions}), as Kueue's workload counts them.
   * This is live mode's "alongside Kueue" (docs/KUEUE.md): Kueue unsuspends, Basalt starts all or none.
   */
  static OwnerObject kueueGang(V1Job job, OwnerObject owner) {
    String queue = owner.labels().get(QueueRequest.KUEUE_LABEL);
    if (queue == null || queue.isEmpty() || owner.annotations().containsKey(GroupInference.MIN_MEMBER_ANNOTATION)
        || job.getSpec() == null) {
      return owner;
    }
    Integer parallelism = job.getSpec().getParallelism();
    Integer completions = job.getSpec().getCompletions();
    int pods = parallelism == null ? 1 : parallelism;
    if (completions != null) {
      pods = Math.min(pods, completions);
    }
    if (pods <= 1) {
      return owner;
    }
    Map<String, String> annotations = new HashMap<>(owner.annotations());
    annotations.put(GroupInference.MIN_MEMBER_ANNOTATION, Integer.toString(pods));
    return new OwnerObject(owner.kind(), owner.namespace(), owner.name(), owner.uid(), owner.labels(), annotations,
        owner.creationTimestamp());
  }

  @Override
  public void remove(T workload, String key, Records.Removals out) {
    out.ownerGone(kind(), key);
  }

  @Override
  public boolean inManifests() {
    return expander != null;
  }

  @Override
  public Expansion expand(JsonObject document) {
    return expander == null ? null : WorkloadExpander.expand(document, expander);
  }

  @Override
  public Watch watch() {
    return watch;
  }

  @Override
  public String project() {
    return project;
  }

  @Override
  public boolean awaitedOwner() {
    return true;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    if (type() != V1Job.class) {
      return null;
    }
    BatchV1Api batch = new BatchV1Api(client);
    return p -> batch.listJobForAllNamespaces().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
