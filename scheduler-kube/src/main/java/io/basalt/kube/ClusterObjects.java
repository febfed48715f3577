package io.basalt.kube;

import com.google.gson.JsonObject;
import io.basalt.dra.ClaimTemplate;
import io.basalt.dra.DeviceClass;
import io.basalt.dra.ResourceClaim;
import io.basalt.dra.ResourceSlice;
import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.fabric.HyperNodeReader;
import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.KubeConversionException;
import io.basalt.kube.kinds.Records;
import io.basalt.kube.kinds.resource.ClaimsFromTemplates;
import io.basalt.kube.kinds.resource.DraRecords;
import io.basalt.kube.kueue.KueueAdmission;
import io.basalt.kube.kueue.KueueMode;
import io.basalt.kube.kueue.KueueRecord;
import io.basalt.model.Namespace;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A cluster in the engine's model, converted from {@link Manifests} by each kind's adapter: kinds in registry order,
 * each kind's objects in document order. {@code errors} holds the
 * manifest's own errors followed by one line per object that failed conversion (that object is left out), e.g.
 * {@code pods.yaml doc 2: Pod team-a/p1: spec.containers[0].resources.requests.cpu: negative quantity '-1'}, then the
 * problems of the network fabric its HyperNodes make ({@link Fabric#EMPTY} when there are none). {@code volumes} holds
 * the storage objects (claims, PVs, classes, CSINodes, capacities), {@code kueue} Kueue's objects (applied by
 * {@link KueueAdmission} in {@link #from}), {@code dra} the DRA objects with the claims made from templates.
 */
public record ClusterObjects(
    List<Node> nodes,
    List<Pod> pods,
    List<PodGroup> podGroups,
    List<Queue> queues,
    List<PriorityClass> priorityClasses,
    List<CoschedulingGroup> coschedulingGroups,
    List<OwnerObject> owners,
    List<String> errors,
    Fabric fabric,
    List<Namespace> namespaces,
    io.basalt.model.ClusterVolumes volumes,
    List<KueueRecord> kueue,
    DraRecords dra,
    List<io.basalt.model.NamespaceQuota> quotas) {

  public ClusterObjects {
    quotas = quotas == null ? List.of() : List.copyOf(quotas);
    volumes = volumes == null ? io.basalt.model.ClusterVolumes.EMPTY : volumes;
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
    podGroups = List.copyOf(podGroups);
    queues = List.copyOf(queues);
    priorityClasses = List.copyOf(priorityClasses);
    coschedulingGroups = List.copyOf(coschedulingGroups);
    owners = List.copyOf(owners);
    errors = List.copyOf(errors);
    fabric = fabric == null ? Fabric.EMPTY : fabric;
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    kueue = kueue == null ? List.of() : List.copyOf(kueue);
    dra = dra == null ? DraRecords.NONE : dra;
  }

  /** A cluster without ResourceQuotas. */
  public ClusterObjects(List<Node> nodes, List<Pod> pods, List<PodGroup> podGroups, List<Queue> queues,
      List<PriorityClass> priorityClasses, List<CoschedulingGroup> coschedulingGroups, List<OwnerObject> owners,
      List<String> errors, Fabric fabric, List<Namespace> namespaces, io.basalt.model.ClusterVolumes volumes,
      List<KueueRecord> kueue, DraRecords dra) {
    this(nodes, pods, podGroups, queues, priorityClasses, coschedulingGroups, owners, errors, fabric, namespaces,
        volumes, kueue, dra, List.of());
  }

  /** A cluster without storage, Kueue or DRA objects. */
  public ClusterObjects(List<Node> nodes, List<Pod> pods, List<PodGroup> podGroups, List<Queue> queues,
      List<PriorityClass> priorityClasses, List<CoschedulingGroup> coschedulingGroups, List<OwnerObject> owners,
      List<String> errors, Fabric fabric, List<Namespace> namespaces) {
    this(nodes, pods, podGroups, queues, priorityClasses, coschedulingGroups, owners, errors, fabric, namespaces,
        null, List.of(), DraRecords.NONE);
  }

  /** Converts every object of {@code m}, the fabric from its HyperNodes; never throws for a bad object. */
  public static ClusterObjects from(Manifests m) {
    return from(m, null);
  }

  /**
   * As {@link #from(Manifests)}, but the fabric built by {@code topology} over the converted nodes (its problems
   * appended to the errors), and the HyperNodes of {@code m} not read; null reads the HyperNodes.
   */
  public static ClusterObjects from(Manifests m, Function<List<Node>, FabricBuilder.Result> topology) {
    return from(m, topology, KueueMode.INSTEAD);
  }

  /**
   * As {@link #from(Manifests, Function)}, with Kueue's workloads admitted as {@code kueue} says
   * ({@link KueueAdmission}: Basalt in Kueue's place, or Kueue alongside).
   */
  public static ClusterObjects from(Manifests m, Function<List<Node>, FabricBuilder.Result> topology,
      KueueMode kueue) {
    List<String> errors = new ArrayList<>(m.errors());
    Collected c = new Collected();
    for (KindAdapter<?> kind : m.kinds().all()) {
      convert(m, kind, c, errors);
    }
    Fabric fabric = Fabric.EMPTY;
    if (topology == null && c.hyperNodes.isEmpty()) {
      topology = KueueAdmission.fabricSource(c.kueue, errors); // Kueue's Topology, when the manifests hold one
    }
    if (topology != null || !c.hyperNodes.isEmpty()) {
      FabricBuilder.Result r = topology != null ? topology.apply(c.nodes) : HyperNodeReader.read(c.hyperNodes, c.nodes);
      errors.addAll(r.problems());
      fabric = r.fabric();
    }
    List<OwnerObject> owners = new ArrayList<>(m.owners());
    owners.addAll(c.owners);
    DraRecords dra = new DraRecords(c.deviceClasses, c.resourceSlices, c.resourceClaims, c.claimTemplates);
    // kube-controller-manager makes the claims of pods naming templates; the simulator stands in for it
    ClaimsFromTemplates.Result claims = ClaimsFromTemplates.make(c.pods, dra);
    List<Pod> pods = claims.pods();
    List<Queue> queues = c.queues;
    KueueAdmission.Result admitted = KueueAdmission.apply(new KueueAdmission.Cluster(pods, c.queues, c.nodes,
        owners, c.priorityClasses, c.kueue), kueue);
    if (admitted != null) {
      pods = admitted.pods();
      queues = admitted.queues();
      errors.addAll(admitted.warnings());
    }
    // the API server's ResourceQuota admission: pods a namespace's quota refuses are never created
    io.basalt.kube.quota.QuotaAdmission.Result quota = io.basalt.kube.quota.QuotaAdmission.apply(pods, c.quotas);
    if (quota != null) {
      pods = quota.pods();
      errors.addAll(quota.warnings());
    }
    return new ClusterObjects(c.nodes, pods, c.podGroups, queues, c.priorityClasses, c.coschedulingGroups, owners,
        errors, fabric, c.namespaces, io.basalt.model.ClusterVolumes.of(c.claims, c.persistentVolumes,
            c.storageClasses, c.csiNodes, c.capacities, c.attachments).withDefaultClass(), c.kueue,
        dra.withClaims(claims.made()),
        c.quotas);
  }

  /** Each object of {@code kind} through its adapter; one that fails is reported with its origin and left out. */
  private static <T extends KubernetesObject> void convert(Manifests m, KindAdapter<T> kind, Records out,
      List<String> errors) {
    for (T o : m.objects(kind)) {
      try {
        kind.put(o, out);
      } catch (KubeConversionException e) {
        String origin = m.origin(o);
        errors.add((origin == null ? "" : origin + ": ") + e.getMessage());
      } catch (RuntimeException e) { // a value no reader expected: the object is left out, the run goes on
        String origin = m.origin(o);
        io.kubernetes.client.openapi.models.V1ObjectMeta meta = o.getMetadata();
        String name = meta == null ? "<unnamed>" : (meta.getNamespace() == null ? "" : meta.getNamespace() + "/")
            + meta.getName();
        errors.add((origin == null ? "" : origin + ": ") + kind.kind() + " " + name + ": cannot be read: "
            + ParserWords.problem(e));
      }
    }
  }

  /** The records of every manifest, by type in the order their kinds handed them over. */
  private static final class Collected implements Records {
    final List<Node> nodes = new ArrayList<>();
    final List<Pod> pods = new ArrayList<>();
    final List<PodGroup> podGroups = new ArrayList<>();
    final List<Queue> queues = new ArrayList<>();
    final List<PriorityClass> priorityClasses = new ArrayList<>();
    final List<CoschedulingGroup> coschedulingGroups = new ArrayList<>();
    final List<OwnerObject> owners = new ArrayList<>();
    final List<JsonObject> hyperNodes = new ArrayList<>();
    final List<Namespace> namespaces = new ArrayList<>();
    final List<io.basalt.model.VolumeClaim> claims = new ArrayList<>();
    final List<io.basalt.model.PersistentVolume> persistentVolumes = new ArrayList<>();
    final List<io.basalt.model.StorageClass> storageClasses = new ArrayList<>();
    final List<io.basalt.model.CsiNode> csiNodes = new ArrayList<>();
    final List<io.basalt.model.StorageCapacity> capacities = new ArrayList<>();

    @Override
    public void volumeClaim(io.basalt.model.VolumeClaim claim) {
      claims.add(claim);
    }

    @Override
    public void persistentVolume(io.basalt.model.PersistentVolume volume) {
      persistentVolumes.add(volume);
    }

    @Override
    public void storageClass(io.basalt.model.StorageClass storageClass) {
      storageClasses.add(storageClass);
    }

    @Override
    public void csiNode(io.basalt.model.CsiNode csiNode) {
      csiNodes.add(csiNode);
    }

    @Override
    public void storageCapacity(io.basalt.model.StorageCapacity capacity) {
      capacities.add(capacity);
    }

    final List<io.basalt.model.VolumeAttachment> attachments = new ArrayList<>();

    @Override
    public void volumeAttachment(io.basalt.model.VolumeAttachment attachment) {
      attachments.add(attachment);
    }

    final List<DeviceClass> deviceClasses = new ArrayList<>();
    final List<ResourceSlice> resourceSlices = new ArrayList<>();
    final List<ResourceClaim> resourceClaims = new ArrayList<>();
    final List<ClaimTemplate> claimTemplates = new ArrayList<>();

    @Override
    public void deviceClass(DeviceClass deviceClass) {
      deviceClasses.add(deviceClass);
    }

    @Override
    public void resourceSlice(ResourceSlice slice) {
      resourceSlices.add(slice);
    }

    @Override
    public void resourceClaim(ResourceClaim claim) {
      resourceClaims.add(claim);
    }

    @Override
    public void claimTemplate(ClaimTemplate template) {
      claimTemplates.add(template);
    }

    final List<KueueRecord> kueue = new ArrayList<>();

    @Override
    public void kueue(KueueRecord record) {
      kueue.add(record);
    }

    final List<io.basalt.model.NamespaceQuota> quotas = new ArrayList<>();

    @Override
    public void resourceQuota(io.basalt.model.NamespaceQuota quota) {
      quotas.add(quota);
    }

    @Override
    public void namespace(Namespace namespace) {
      namespaces.add(namespace);
    }

    @Override
    public void node(Node node) {
      nodes.add(node);
    }

    @Override
    public void pod(Pod pod) {
      pods.add(pod);
    }

    @Override
    public void priorityClass(PriorityClass priorityClass) {
      priorityClasses.add(priorityClass);
    }

    @Override
    public void queue(Queue queue) {
      queues.add(queue);
    }

    @Override
    public void podGroup(PodGroup group) {
      podGroups.add(group);
    }

    @Override
    public void coschedulingGroup(CoschedulingGroup group) {
      coschedulingGroups.add(group);
    }

    @Override
    public void owner(OwnerObject owner) {
      owners.add(owner);
    }

    @Override
    public void hyperNode(String name, JsonObject document) {
      hyperNodes.add(document);
    }
  }
}
