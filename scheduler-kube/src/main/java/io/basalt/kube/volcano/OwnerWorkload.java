package io.basalt.kube.volcano;

/**
 * A workload custom resource owning pods (Kubeflow's PyTorchJob, MPIJob, TFJob; a JobSet), read for its metadata
 * only: gang inference needs its uid, labels and annotations ({@code scheduling.volcano.sh/group-min-member}, the
 * queue), never its spec, so one bean serves every such kind and nothing of the spec is kept.
 */
public final class OwnerWorkload extends VolcanoObject<OwnerWorkload, OwnerWorkload.Unread, OwnerWorkload.Unread> {
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

  /** The list of any such kind, for client-java's generic API and informers. */
  public static final class List extends VolcanoObjectList<OwnerWorkload> {}
}
