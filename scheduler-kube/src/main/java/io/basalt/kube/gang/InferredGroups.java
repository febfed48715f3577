package io.basalt.kube.gang;

import io.basalt.cache.ClusterCache;
import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.QueueRequest;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The podgroup controller Basalt does without: keeps one inferred {@link PodGroup} in the {@link ClusterCache} for
 * each gang {@link GroupInference} finds among our pods, from what the pods, their owners and coscheduling PodGroups
 * say. Fed by the same source as the cache (informers live, manifests in the simulator), before each snapshot.
 *
 * <p>Size ({@code minMember}), in order: {@code scheduling.volcano.sh/group-min-member} on the pods (their template) or
 * on the owner (the pods' controller; for a JobSet's group, the JobSet); the coscheduling PodGroup's
 * {@code spec.minMember}; Kueue's {@code pod-group-total-count}; LeaderWorkerSet's {@code size}; else 1 (no gang,
 * each pod as before). Queue: {@link QueueRequest} of the pods, then of the owner. A group whose coscheduling
 * PodGroup, or whose owner of an awaited kind, has not been seen yet gets no PodGroup: its pods wait (a Job's pods
 * must not start alone because the Job was seen after them). Each group carries the owner a PodGroup object written
 * for it would name ({@link PodGroup#owner()}).
 */
public final class InferredGroups {
  private static final String JOBSET = "JobSet";
  private static final ResourceVector ONE_POD = ResourceVector.builder().add(ResourceNames.PODS, 1).build();

  private final ClusterCache cache;
  private final String defaultQueue;
  private final Set<String> awaitedOwnerKinds;
  private final Consumer<String> warnings;
  private final Map<String, OwnerObject> owners = new HashMap<>();
  /** JobSets by namespace/name: their pods' controller is a Job, the group is the JobSet's. */
  private final Map<String, OwnerObject> jobSets = new HashMap<>();
  private final Map<String, CoschedulingGroup> coscheduling = new HashMap<>();
  private final Map<String, Group> groups = new HashMap<>();
  /**
   * Group keys by the uid of a controller some member pod named: an owner's change recomputes only its groups. May
   * hold keys of groups gone or moved since; they are pruned when the owner next changes.
   */
  private final Map<String, Set<String>> groupsByOwner = new HashMap<>();
  private final Map<String, String> groupOfPod = new HashMap<>();
  /** Lines already said, by group key or lone pod uid; forgotten with the group or pod. */
  private final Map<String, Set<String>> warned = new HashMap<>();

  /** One inferred gang's members (by pod uid, in arrival order). */
  private static final class Group {
    final String namespace;
    final GroupInference.Inferred inferred;
    final Map<String, Pod> members = new LinkedHashMap<>();

    Group(String namespace, GroupInference.Inferred inferred) {
      this.namespace = namespace;
      this.inferred = inferred;
    }
  }

  /**
   * @param awaitedOwnerKinds owner kinds the source watches (live: {@code Job}): a group of such an owner forms only
   *     once the owner is seen. Owners of other kinds are read when present and not waited for.
   * @param warnings one line per problem (a bad annotation, a Kueue queue that does not exist), each said once
   */
  public InferredGroups(ClusterCache cache, String defaultQueue, Set<String> awaitedOwnerKinds,
      Consumer<String> warnings) {
    this.cache = cache;
    this.defaultQueue = defaultQueue;
    this.awaitedOwnerKinds = Set.copyOf(awaitedOwnerKinds);
    this.warnings = warnings;
  }

  /** A pod added or changed (any scheduler's; only ours join groups). */
  public synchronized void putPod(Pod pod) {
    GroupInference.Inferred inferred = cache.schedulerNames().contains(pod.schedulerName())
        ? GroupInference.of(pod) : null;
    String key = inferred == null || inferred.basis() == GroupInference.Basis.VOLCANO ? null
        : pod.namespace() + "/" + inferred.name();
    String before = key == null ? groupOfPod.remove(pod.uid()) : groupOfPod.put(pod.uid(), key);
    if (before != null && !before.equals(key)) {
      Group old = groups.get(before);
      if (old != null) {
        old.members.remove(pod.uid());
        recompute(before);
      }
    }
    if (key == null) {
      if (inferred == null && cache.schedulerNames().contains(pod.schedulerName())) {
        warnOnce(pod.uid(), QueueRequest.of(pod).fallbackReason(cache::hasQueue, defaultQueue), "pod " + pod.key());
      }
      return;
    }
    groups.computeIfAbsent(key, k -> new Group(pod.namespace(), inferred)).members.put(pod.uid(), pod);
    if (pod.controller() != null && pod.controller().uid() != null) {
      groupsByOwner.computeIfAbsent(pod.controller().uid(), u -> new HashSet<>()).add(key);
    }
    recompute(key);
  }

  public synchronized void removePod(String uid) {
    warned.remove(uid);
    String key = groupOfPod.remove(uid);
    Group g = key == null ? null : groups.get(key);
    if (g != null) {
      g.members.remove(uid);
      recompute(key);
    }
  }

  public synchronized void putOwner(OwnerObject owner) {
    owners.put(owner.uid(), owner);
    if (JOBSET.equals(owner.kind())) {
      jobSets.put(owner.namespace() + "/" + owner.name(), owner);
    }
    recomputeOwnedBy(owner);
  }

  public synchronized void removeOwner(String uid) {
    OwnerObject owner = owners.remove(uid);
    if (owner != null) {
      jobSets.remove(owner.namespace() + "/" + owner.name(), owner);
      recomputeOwnedBy(owner);
    }
  }

  public synchronized void putCoscheduling(CoschedulingGroup group) {
    coscheduling.put(group.key(), group);
    recompute(group.key());
  }

  public synchronized void removeCoscheduling(String key) {
    coscheduling.remove(key);
    recompute(key);
  }

  /** Queues were added or removed: a Kueue queue name may resolve differently now. */
  public synchronized void queuesChanged() {
    for (String key : Set.copyOf(groups.keySet())) {
      recompute(key);
    }
  }

  /** Recomputes the groups of the owner's pods: those it controls, or for a JobSet its JobSet-wide group. */
  private void recomputeOwnedBy(OwnerObject owner) {
    String uid = owner.uid();
    Set<String> keys = new HashSet<>();
    if (JOBSET.equals(owner.kind()) && groups.containsKey(owner.namespace() + "/jobset-" + owner.name())) {
      keys.add(owner.namespace() + "/jobset-" + owner.name());
    }
    Set<String> owned = groupsByOwner.get(uid);
    if (owned != null) {
      owned.removeIf(key -> !groups.containsKey(key)); // groups gone since: forget them here too
      keys.addAll(owned);
      if (owned.isEmpty()) {
        groupsByOwner.remove(uid);
      }
    }
    keys.forEach(this::recompute);
  }

  private void recompute(String key) {
    Group g = groups.get(key);
    if (g == null || g.members.isEmpty()) {
      groups.remove(key);
      warned.remove(key);
      cache.removeInferredPodGroup(key);
      return;
    }
    PodGroup pg = build(key, g);
    if (pg == null) {
      cache.removeInferredPodGroup(key);
    } else {
      cache.putPodGroup(pg);
    }
  }

  /** The group's PodGroup, or null while what it depends on has not been seen. */
  private PodGroup build(String key, Group g) {
    Pod rep = g.members.values().iterator().next();
    GroupInference.Basis basis = g.inferred.basis();
    OwnerObject owner;
    OwnerReference ownerRef;
    if (basis == GroupInference.Basis.JOBSET) {
      owner = jobSets.get(g.namespace + "/" + rep.labels().get(GroupInference.JOBSET_LABEL));
      ownerRef = owner == null ? null
          : new OwnerReference(GroupInference.JOBSET_API_VERSION, JOBSET, owner.name(), owner.uid());
      if (owner == null && awaitedOwnerKinds.contains(JOBSET)) {
        return null;
      }
    } else {
      owner = rep.controller() == null ? null : owners.get(rep.controller().uid());
      ownerRef = basis == GroupInference.Basis.OWNER ? rep.controller() : null;
      if (basis == GroupInference.Basis.OWNER && owner == null
          && awaitedOwnerKinds.contains(rep.controller().kind())) {
        return null;
      }
    }
    CoschedulingGroup cg = coscheduling.get(key);
    if (basis == GroupInference.Basis.COSCHEDULING && cg == null) {
      return null;
    }
    Integer size = count(rep.annotations().get(GroupInference.MIN_MEMBER_ANNOTATION),
        "pod " + rep.key() + " annotation " + GroupInference.MIN_MEMBER_ANNOTATION, key);
    if (size == null && owner != null) {
      size = count(owner.annotations().get(GroupInference.MIN_MEMBER_ANNOTATION), owner.kind() + " "
          + owner.namespace() + "/" + owner.name() + " annotation " + GroupInference.MIN_MEMBER_ANNOTATION, key);
    }
    if (size == null) {
      size = switch (basis) {
        case COSCHEDULING -> cg.minMember();
        case KUEUE -> count(rep.annotations().get(GroupInference.KUEUE_TOTAL_COUNT_ANNOTATION),
            "pod " + rep.key() + " annotation " + GroupInference.KUEUE_TOTAL_COUNT_ANNOTATION, key);
        case LEADER_WORKER_SET -> count(rep.annotations().get(GroupInference.LWS_SIZE_ANNOTATION),
            "pod " + rep.key() + " annotation " + GroupInference.LWS_SIZE_ANNOTATION, key);
        default -> null;
      };
    }
    int minMember = size == null ? 1 : size;
    QueueRequest request = QueueRequest.of(rep);
    if (owner != null) {
      request = request.or(QueueRequest.of(owner.labels(), owner.annotations()));
    }
    warnOnce(key, request.fallbackReason(cache::hasQueue, defaultQueue), g.inferred.source());
    String queue = request.resolve(cache::hasQueue, defaultQueue);
    ResourceVector minResources = cg != null ? cg.minResources() : rep.request().minus(ONE_POD).times(minMember);
    Instant created = owner != null ? owner.creationTimestamp() : null;
    if (cg != null && cg.creationTimestamp() != null) {
      created = cg.creationTimestamp();
    }
    for (Pod p : g.members.values()) {
      if (created == null || p.creationTimestamp() != null && p.creationTimestamp().isBefore(created)) {
        created = p.creationTimestamp();
      }
    }
    return new PodGroup(g.namespace, g.inferred.name(), minMember, Map.of(), queue, rep.priorityClassName(),
        minResources, "Pending", created, g.inferred.source(), GroupInference.kueueTopology(rep.annotations()),
        ownerRef);
  }

  /** A positive count, or null when absent; a bad value is warned about (naming the field) and ignored. */
  private Integer count(String value, String field, String key) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    warnOnce(key, field + ": '" + value + "' is not a positive integer; ignored", null);
    return null;
  }

  private void warnOnce(String key, String message, String subject) {
    if (message == null) {
      return;
    }
    String line = subject == null ? message : subject + ": " + message;
    if (warned.computeIfAbsent(key, k -> new HashSet<>()).add(line)) {
      warnings.accept(line);
    }
  }
}
