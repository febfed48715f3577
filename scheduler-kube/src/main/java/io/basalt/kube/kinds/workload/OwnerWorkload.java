package io.basalt.kube.kinds.workload;

import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * A workload custom resource owning pods (Kubeflow's PyTorchJob, MPIJob, TFJob; a JobSet), watched for its metadata
 * only: gang inference needs its uid, labels and annotations ({@code scheduling.volcano.sh/group-min-member}, the
 * queue), never its spec, so nothing of the spec is kept. One class per kind, only because client-java's informer
 * factory keeps one informer per class.
 *
 * @param <O> the kind's class
 */
public abstract class OwnerWorkload<O extends OwnerWorkload<O>> extends CustomObject<O, OwnerWorkload.Unread,
    OwnerWorkload.Unread> {
  /** {@code spec} and {@code status}: not read (Gson skips their fields), all alike. */
  public static final class Unread {
    @Override
    public boolean equals(Object o) {
      return o instanceof Unread;
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }

  /** Kubeflow {@code PyTorchJob}. */
  public static final class PyTorchJob extends OwnerWorkload<PyTorchJob> {}

  /** Kubeflow {@code MPIJob}. */
  public static final class MpiJob extends OwnerWorkload<MpiJob> {}

  /** Kubeflow {@code TFJob}. */
  public static final class TfJob extends OwnerWorkload<TfJob> {}

  /** {@code JobSet}. */
  public static final class JobSet extends OwnerWorkload<JobSet> {}

  /** Volcano's {@code batch.volcano.sh} Job: read from manifests only, never watched (see {@link WorkloadKind}). */
  public static final class VolcanoJob extends OwnerWorkload<VolcanoJob> {}

  /** The list types, for client-java's generic API and informers. */
  public static final class PyTorchJobList extends CustomObjectList<PyTorchJob> {}

  public static final class MpiJobList extends CustomObjectList<MpiJob> {}

  public static final class TfJobList extends CustomObjectList<TfJob> {}

  public static final class JobSetList extends CustomObjectList<JobSet> {}

  public static final class VolcanoJobList extends CustomObjectList<VolcanoJob> {}
}
