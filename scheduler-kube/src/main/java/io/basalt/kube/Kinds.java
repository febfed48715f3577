package io.basalt.kube;

import io.basalt.kube.kinds.resource.DeviceClassKind;
import io.basalt.kube.kinds.resource.ResourceClaimKind;
import io.basalt.kube.kinds.resource.ResourceClaimTemplateKind;
import io.basalt.kube.kinds.resource.ResourceSliceKind;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroupKind;
import io.basalt.kube.kinds.core.NamespaceKind;
import io.basalt.kube.kinds.core.NodeKind;
import io.basalt.kube.kinds.core.PodKind;
import io.basalt.kube.kinds.core.PriorityClassKind;
import io.basalt.kube.kinds.storage.CsiNodeKind;
import io.basalt.kube.kinds.storage.CsiStorageCapacityKind;
import io.basalt.kube.kinds.storage.PersistentVolumeClaimKind;
import io.basalt.kube.kinds.storage.PersistentVolumeKind;
import io.basalt.kube.kinds.storage.StorageClassKind;
import io.basalt.kube.kinds.kueue.KueueKind;
import io.basalt.kube.kinds.volcano.HyperNodeKind;
import io.basalt.kube.kinds.volcano.VolcanoPodGroupKind;
import io.basalt.kube.kinds.volcano.VolcanoQueueKind;
import io.basalt.kube.kinds.workload.WorkloadKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The registry of {@link KindAdapter}s: every kind Basalt reads, for the simulator ({@link ManifestReader}) and for
 * live mode ({@code kube.live.InformerSource}) alike. Adding a kind is its adapter and one line in {@link #BUILTIN}.
 *
 * <p>The order is the order records reach the engine's lists and the order conversion errors are reported in, so it
 * is part of what the simulator decides: nodes first (the fabric is built over them), then pods, groups, queues.
 */
public final class Kinds {
  private static final Kinds BUILTIN = new Kinds(List.of(
      new NodeKind(),
      new PodKind(),
      new VolcanoPodGroupKind(),
      new VolcanoQueueKind(),
      new PriorityClassKind(),
      new CoschedulingPodGroupKind(),
      new NamespaceKind(),
      new HyperNodeKind(),
      WorkloadKind.BATCH_JOB,
      WorkloadKind.VOLCANO_JOB,
      WorkloadKind.JOBSET,
      WorkloadKind.PYTORCHJOB,
      WorkloadKind.MPIJOB,
      WorkloadKind.TFJOB,
      new PersistentVolumeClaimKind(),
      new PersistentVolumeKind(),
      new StorageClassKind(),
      new CsiNodeKind(),
      new CsiStorageCapacityKind(),
      KueueKind.RESOURCE_FLAVOR,
      KueueKind.CLUSTER_QUEUE,
      KueueKind.LOCAL_QUEUE,
      KueueKind.COHORT,
      KueueKind.WORKLOAD_PRIORITY_CLASS,
      KueueKind.TOPOLOGY,
      KueueKind.ADMISSION_CHECK,
      KueueKind.PROVISIONING_REQUEST_CONFIG,
      new io.basalt.kube.kinds.autoscaling.ProvisioningRequestKind(),
      new DeviceClassKind(),
      new ResourceSliceKind(),
      new ResourceClaimKind(),
      new ResourceClaimTemplateKind(),
      new io.basalt.kube.kinds.core.ResourceQuotaKind(),
      new io.basalt.kube.kinds.storage.VolumeAttachmentKind()));

  private final List<KindAdapter<?>> adapters;

  private Kinds(List<KindAdapter<?>> adapters) {
    this.adapters = List.copyOf(adapters);
  }

  /** The kinds Basalt reads out of the box. */
  public static Kinds builtin() {
    return BUILTIN;
  }

  /** Exactly {@code adapters}, in this order (a source reading only some kinds: tests, tools). */
  public static Kinds of(List<KindAdapter<?>> adapters) {
    return new Kinds(adapters);
  }

  /** These kinds and {@code adapter} after them (a kind not built in: a test's, an extension's). */
  public Kinds with(KindAdapter<?> adapter) {
    List<KindAdapter<?>> all = new ArrayList<>(adapters);
    all.add(adapter);
    return new Kinds(all);
  }

  /** Every kind, in registry order. */
  public List<KindAdapter<?>> all() {
    return adapters;
  }

  /** The kind that reads a manifest document of {@code apiVersion} and {@code kind}; null when none does. */
  public KindAdapter<?> forDocument(String apiVersion, String kind) {
    for (KindAdapter<?> a : adapters) {
      if (a.readsDocument(apiVersion, kind)) {
        return a;
      }
    }
    return null;
  }
}
