package io.basalt.kube.live;

import io.basalt.kube.kinds.workload.OwnerWorkload;
import io.basalt.kube.kinds.CustomObjectList;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.util.List;

/**
 * A custom workload kind owning pods that live mode watches beside batch Jobs when its CRD is served, so an
 * annotation or queue label on the workload (not only on its pod template) shapes its gang. The versions are those
 * the simulator expands ({@code kubeflow.org/v1} for the training operator's jobs, MPIJob included;
 * {@code jobset.x-k8s.io/v1alpha2}).
 *
 * @param plural the resource, also the informer's name in logs
 * @param project who installs the CRD, for the message when it is missing
 */
record OwnerKind<T extends OwnerWorkload<T>, L extends CustomObjectList<T>>(String kind, String group,
    String version, String plural, String project, Class<T> type, Class<L> listType) {
  private static final String TRAINING = "Kubeflow training operator's";

  static final List<OwnerKind<?, ?>> CUSTOM = List.of(
      new OwnerKind<>("PyTorchJob", "kubeflow.org", "v1", "pytorchjobs", TRAINING, OwnerWorkload.PyTorchJob.class,
          OwnerWorkload.PyTorchJobList.class),
      new OwnerKind<>("MPIJob", "kubeflow.org", "v1", "mpijobs", TRAINING, OwnerWorkload.MpiJob.class,
          OwnerWorkload.MpiJobList.class),
      new OwnerKind<>("TFJob", "kubeflow.org", "v1", "tfjobs", TRAINING, OwnerWorkload.TfJob.class,
          OwnerWorkload.TfJobList.class),
      new OwnerKind<>("JobSet", "jobset.x-k8s.io", "v1alpha2", "jobsets", "JobSet's", OwnerWorkload.JobSet.class,
          OwnerWorkload.JobSetList.class));

  GenericKubernetesApi<T, L> api(ApiClient client) {
    return new GenericKubernetesApi<>(type, listType, group, version, plural, client);
  }
}
