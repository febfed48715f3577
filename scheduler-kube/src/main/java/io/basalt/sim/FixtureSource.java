package io.basalt.sim;

import io.basalt.cache.ClusterCache;
import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.ClusterObjects;
import io.basalt.kube.ManifestReader;
import io.basalt.kube.gang.InferredGroups;
import io.basalt.kube.kueue.KueueMode;
import io.basalt.kube.Manifests;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.scheduler.ClusterSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A cluster read from Kubernetes YAML, through the same conversion live informers use. Documents of unknown kinds
 * and objects that fail conversion are reported as warnings and left out; malformed YAML fails the load.
 */
public final class FixtureSource implements ClusterSource {
  private final Manifests manifests;
  private final ClusterObjects objects;
  private final List<String> warnings;
  private final List<String> startWarnings = new ArrayList<>();

  private final String topologyName;
  private final Function<List<Node>, FabricBuilder.Result> topology;

  private FixtureSource(Manifests manifests, String topologyName, Function<List<Node>, FabricBuilder.Result> topology) {
    this(manifests, topologyName, topology, KueueMode.INSTEAD);
  }

  private FixtureSource(Manifests manifests, String topologyName, Function<List<Node>, FabricBuilder.Result> topology,
      KueueMode kueue) {
    this.manifests = manifests;
    this.topologyName = topologyName;
    this.topology = topology;
    this.objects = ClusterObjects.from(manifests, topology, kueue);
    List<String> w = new ArrayList<>(manifests.skipped());
    w.addAll(manifests.warnings());
    w.addAll(objects.errors());
    if (topology != null && !manifests.hyperNodes().isEmpty()) {
      w.add("ignored: " + manifests.hyperNodes().size() + " HyperNode(s) in the manifests; the network fabric comes "
          + "from " + topologyName);
    }
    this.warnings = List.copyOf(w);
  }

  private FixtureSource(Manifests manifests) {
    this(manifests, null, null);
  }

  /** Reads files and directories (every *.yaml/*.yml/*.json in them, by name). */
  public static FixtureSource fromPaths(List<Path> paths) throws IOException {
    for (Path p : paths) {
      if (!Files.exists(p)) {
        throw new IOException("--cluster " + p + ": no such file or directory");
      }
    }
    return new FixtureSource(new ManifestReader().read(paths));
  }

  /** The cluster {@code manifests} hold (read with kinds of the caller's choosing, see {@link ManifestReader}). */
  public static FixtureSource of(Manifests manifests) {
    return new FixtureSource(manifests);
  }

  /** Reads YAML text; {@code name} labels warnings. */
  public static FixtureSource fromText(String name, String yaml) {
    return new FixtureSource(new ManifestReader().readString(name, yaml));
  }

  /**
   * The same cluster with its network fabric built by {@code topology} over its nodes instead of from its HyperNodes
   * (which are then ignored, with a warning); the build's problems become warnings.
   *
   * @param name the source, as warnings name it ({@code --topology node_group.json})
   */
  public FixtureSource withTopology(String name, Function<List<Node>, FabricBuilder.Result> topology) {
    return new FixtureSource(manifests, name, topology);
  }

  /**
   * The same cluster with Kueue's workloads admitted as {@code kueue} says: by Basalt in Kueue's place
   * ({@link KueueMode#INSTEAD}, the default) or by a Kueue running alongside.
   */
  public FixtureSource withKueue(KueueMode kueue) {
    return new FixtureSource(manifests, topologyName, topology, kueue);
  }

  public ClusterObjects objects() {
    return objects;
  }

  /**
   * Fills {@code cache}, inferring gangs for pods without a Volcano PodGroup (owners are all in the manifests, so none
   * is awaited), and notes pending pods left to other schedulers.
   */
  @Override
  public void start(ClusterCache cache) {
    InferredGroups inferred = new InferredGroups(cache, cache.defaultQueue(), Set.of(), startWarnings::add);
    for (PriorityClass pc : objects.priorityClasses()) {
      cache.putPriorityClass(pc);
    }
    objects.namespaces().forEach(cache::putNamespace);
    objects.volumes().claims().values().forEach(cache.volumes()::putClaim);
    objects.volumes().volumes().values().forEach(cache.volumes()::putVolume);
    objects.volumes().classes().values().forEach(cache.volumes()::putClass);
    objects.volumes().csiNodes().values().forEach(cache.volumes()::putCsiNode);
    objects.volumes().capacities().values().forEach(l -> l.forEach(cache.volumes()::putCapacity));
    objects.volumes().attachments().values().forEach(l -> l.forEach(cache.volumes()::putAttachment));
    for (Queue q : objects.queues()) {
      cache.putQueue(q);
    }
    for (Node n : objects.nodes()) {
      cache.putNode(n);
    }
    cache.setFabric(objects.fabric());
    objects.quotas().forEach(cache::putNamespaceQuota);
    objects.dra().classes().forEach(cache::putDeviceClass);
    objects.dra().slices().forEach(cache::putResourceSlice);
    objects.dra().claims().forEach(cache::putResourceClaim);
    objects.dra().templates().forEach(cache::putClaimTemplate);
    for (PodGroup pg : objects.podGroups()) {
      cache.putPodGroup(pg);
    }
    objects.owners().forEach(inferred::putOwner);
    objects.coschedulingGroups().forEach(inferred::putCoscheduling);
    Map<String, Integer> others = new TreeMap<>();
    for (Pod p : objects.pods()) {
      cache.putPod(p);
      inferred.putPod(p);
      if (!p.isAssigned() && !p.isFinished() && !cache.schedulerNames().contains(p.schedulerName())) {
        others.merge(p.schedulerName(), 1, Integer::sum);
      }
    }
    if (!others.isEmpty()) {
      startWarnings.add("ignored: " + others.values().stream().mapToInt(Integer::intValue).sum()
          + " pending pod(s) for other schedulers " + others + "; set spec.schedulerName to schedule them here");
    }
  }

  @Override
  public List<String> warnings() {
    List<String> all = new ArrayList<>(warnings);
    all.addAll(startWarnings);
    return all;
  }
}
