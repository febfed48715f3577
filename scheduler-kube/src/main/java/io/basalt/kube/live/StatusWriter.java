package io.basalt.kube.live;

import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.model.Pod;
import io.basalt.scheduler.StatusSink;
import io.basalt.session.SessionResult;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Writes back what a session decided, as users know it from kube-scheduler and Volcano: a pending pod gets condition
 * {@code PodScheduled=False}, reason {@code Unschedulable}, with the reason as message (so Cluster Autoscaler and
 * Karpenter react) and a {@code FailedScheduling} Warning event, except a pod held back by scheduling gates, whose
 * condition the API server set; a bound pod a {@code Scheduled} event; a PodGroup
 * its {@code status.phase}, {@code running} count and conditions; a Queue its {@code status.allocated} and PodGroup
 * counts.
 *
 * <p>A pending pod's {@code status.nominatedNodeName} says where room is held for it (a preemptor whose victims are
 * leaving, a pod pipelined onto releasing room, a pod whose bind was refused), in the same status patch as its
 * condition, as kube-scheduler writes it; it is cleared (patched to null) when the hold lapses or the cycle finds the
 * node can no longer take the pod. A bind needs no write: the API server clears the field when it binds the pod
 * (Kubernetes 1.34+, {@code ClearingNominatedNodeNameAfterBinding}); an older one leaves it on the bound pod, as
 * kube-scheduler does.
 *
 * <p>Only what changed since the last write is written. Writes go out on one background thread, coalesced: at most
 * one pending write per object, the newest, so a slow or hung API server costs memory per object, never per cycle.
 * Events go through an {@link EventSender} on their own client and rate limit, best effort.
 */
public final class StatusWriter implements StatusSink, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(StatusWriter.class.getName());

  private final ApiClient client;
  private final EventSender events;
  private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "basalt-status");
    t.setDaemon(true);
    return t;
  });
  // What was last decided per object (guarded by this), to write only on change.
  private final Map<String, String> lastReason = new HashMap<>();
  /** The nominatedNodeName written per pod ("" when cleared) until the API shows it, so it goes out once. */
  private final Map<String, String> lastNominated = new HashMap<>();
  private final Map<String, String> lastPhase = new HashMap<>();
  private final Map<String, String> lastQueue = new HashMap<>();
  // What waits to be written (guarded by this), newest per object; drained by the writer thread.
  private final Map<String, PodWrite> pendingPods = new LinkedHashMap<>();
  private final Map<String, String> pendingGroups = new LinkedHashMap<>();
  /** The domain last written on each PodGroup, and those still to write. */
  private final Map<String, String> lastDomain = new HashMap<>();
  private final Map<String, String> pendingDomains = new LinkedHashMap<>();
  private final Map<String, SessionResult.QueueStatus> pendingQueues = new LinkedHashMap<>();
  /** Per queue, the resources the API server last showed under status.allocated (writer thread only). */
  private final Map<String, Set<String>> serverAllocated = new HashMap<>();
  private boolean drainQueued;
  /**
   * Until a 404 says otherwise PodGroup status goes to the status subresource (a CRD may define one); when it was
   * found missing, the object itself is patched, and the subresource is tried again after {@link #REPROBE} in case
   * the CRD was upgraded meanwhile (status patched on the object would then be ignored). Writer thread only.
   */
  private boolean subresourceMissing;
  private long subresourceMissingSince;
  static final Duration REPROBE = Duration.ofMinutes(10);
  /**
   * Whether a PodGroup object of that key exists as the cache last saw it: a gang whose PodGroup is gone (its Job
   * deleted while the pods terminate; a group named by pods but never created) has nothing to write to.
   */
  private volatile Predicate<String> podGroupObject = key -> true;
  /**
   * Groups a status patch found gone (404 on the object), so they are not written again while their pods linger;
   * forgotten once their job is gone from the cycle or the cache shows the object changed (guarded by this).
   */
  private final Map<String, Object> goneGroups = new HashMap<>();
  private volatile java.util.function.Function<String, Object> podGroupVersion = key -> null;
  /** Per PodGroup, each condition type's status and when it last flipped, for lastTransitionTime (guarded). */
  private final Map<String, Map<String, StatusPatches.Transition>> transitions = new HashMap<>();

  /**
   * One pod status patch: its condition when {@code condition} ({@code first} when none was written for it before:
   * that sets the time), its nominated node when {@code nomination}.
   */
  private record PodWrite(SessionResult.PendingPod pending, boolean condition, boolean first, boolean nomination) {}

  public StatusWriter(ApiClient client) {
    this(client, client);
  }

  /**
   * @param eventClient for events only: a client with its own rate limit, as kube-scheduler keeps one, so a burst
   *     of events never slows binding and status writes down
   */
  public StatusWriter(ApiClient client, ApiClient eventClient) {
    this.client = client;
    this.events = new EventSender(eventClient, EventSender.SENDERS);
  }

  /**
   * Tells the writer which PodGroup objects exist ({@code version}: the object as the cache holds it, null when there
   * is none), so no status is patched onto one that does not: live mode passes the cache's PodGroup objects.
   * Without it every non-inferred group is assumed to have one, and a 404 alone stops the writes.
   */
  public StatusWriter podGroupObjects(java.util.function.Function<String, Object> version) {
    this.podGroupVersion = version;
    this.podGroupObject = key -> version.apply(key) != null;
    return this;
  }

  @Override
  public synchronized void update(SessionResult result) {
    Set<String> pendingNow = new HashSet<>();
    for (SessionResult.PendingPod p : result.pending()) {
      if (p.gated()) {
        continue; // the API server set PodScheduled=False, SchedulingGated; kube-scheduler writes nothing either
      }
      pendingNow.add(p.pod().uid());
      String before = lastReason.put(p.pod().uid(), p.reason());
      boolean condition = !p.reason().equals(before);
      int nomination = nomination(p);
      if (condition || nomination != NOMINATION_KEPT) {
        PodWrite queued = pendingPods.get(p.pod().uid());
        boolean writeCondition = condition || queued != null && queued.condition();
        // In step with the API again: a nomination still queued would undo that.
        boolean writeNomination = nomination == NOMINATION_WRITE
            || nomination == NOMINATION_KEPT && queued != null && queued.nomination();
        if (writeCondition || writeNomination) {
          pendingPods.put(p.pod().uid(), new PodWrite(p, writeCondition,
              condition && before == null || queued != null && queued.first(), writeNomination));
        } else if (queued != null) {
          pendingPods.remove(p.pod().uid());
        }
      }
    }
    // Forget pods no longer pending (bound or gone) and finished jobs, so memory follows the cluster, not history;
    // a write still queued for a pod that has since been placed is dropped (it would mark a bound pod Unschedulable).
    lastReason.keySet().retainAll(pendingNow);
    lastNominated.keySet().retainAll(pendingNow);
    pendingPods.keySet().retainAll(pendingNow);
    Set<String> jobsNow = new HashSet<>();
    for (SessionResult.JobStatus j : result.jobs()) {
      jobsNow.add(j.key());
      boolean object = j.hasPodGroupObject() && writable(j.key());
      String body = object ? StatusPatches.podGroup(j) : null;
      if (body != null && !body.equals(lastPhase.put(j.key(), body))) {
        pendingGroups.put(j.key(), StatusPatches.podGroup(j, StatusPatches.transitionTimes(
            transitions.computeIfAbsent(j.key(), k -> new HashMap<>()), j.conditions(), now())));
      }
      if (j.domain() != null && object && !j.domain().equals(lastDomain.put(j.key(), j.domain()))) {
        pendingDomains.put(j.key(), j.domain());
      }
    }
    goneGroups.keySet().retainAll(jobsNow);
    transitions.keySet().retainAll(jobsNow);
    lastPhase.keySet().retainAll(jobsNow);
    pendingGroups.keySet().retainAll(jobsNow);
    lastDomain.keySet().retainAll(jobsNow);
    pendingDomains.keySet().retainAll(jobsNow);
    for (SessionResult.QueueStatus q : result.queues()) {
      String canonical = StatusPatches.queue(q, Set.of());
      if (!canonical.equals(lastQueue.put(q.name(), canonical))) {
        pendingQueues.put(q.name(), q);
      }
    }
    boolean work = !pendingPods.isEmpty() || !pendingGroups.isEmpty() || !pendingQueues.isEmpty()
        || !pendingDomains.isEmpty();
    if (work && !drainQueued) {
      drainQueued = true;
      writer.execute(this::drain);
    }
  }

  /**
   * Whether the group's status may be written: its PodGroup object exists, and no write found it gone since the
   * cache last showed it changed.
   */
  private boolean writable(String key) {
    if (!podGroupObject.test(key)) {
      lastPhase.remove(key);
      return false;
    }
    if (goneGroups.isEmpty() || !goneGroups.containsKey(key)) {
      return true;
    }
    if (java.util.Objects.equals(goneGroups.get(key), podGroupVersion.apply(key))) {
      return false;
    }
    goneGroups.remove(key); // the cache shows it again (recreated): write to it
    lastPhase.remove(key);
    return true;
  }

  /** Where the times written come from (tests set a fixed one). */
  volatile java.time.Clock clock = java.time.Clock.systemUTC();

  /** RFC 3339 with seconds always: OffsetDateTime.toString drops ":00" seconds, which the API server rejects. */
  private String now() {
    return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** {@link #nomination}: nothing to do; the API shows what was written (or always did); write it. */
  private static final int NOMINATION_KEPT = 0;
  private static final int NOMINATION_IN_STEP = 1;
  private static final int NOMINATION_WRITE = 2;

  /**
   * Whether {@code p}'s nominated node must be written: the cycle's differs from what the API last showed and was not
   * written already (the informer not having shown the write yet); or the API shows it again, so a write of another
   * value still queued must not go out.
   */
  private int nomination(SessionResult.PendingPod p) {
    String want = p.nominatedNode();
    if (java.util.Objects.equals(want, p.pod().nominatedNodeName())) {
      // Most cycles of a backlog: nothing nominated, nothing to look up.
      return !lastNominated.isEmpty() && lastNominated.remove(p.pod().uid()) != null ? NOMINATION_IN_STEP
          : NOMINATION_KEPT;
    }
    String value = want == null ? "" : want;
    return value.equals(lastNominated.put(p.pod().uid(), value)) ? NOMINATION_KEPT : NOMINATION_WRITE;
  }

  /** Records {@code Scheduled} once the binder says the pod is bound. */
  public void bound(Pod pod, String node) {
    events.send("Pod", pod.namespace(), pod.name(), pod.uid(), "Normal", "Scheduled",
        "Successfully assigned " + pod.key() + " to " + node);
  }

  /** The reason of the condition and event of a pod whose bind waits on a pre-bind step (HAMi's node lock). */
  public static final String WAITING_TO_BIND = "WaitingToBind";

  /**
   * A bind waits on a pre-bind step, as for HAMi's node lock another pod holds: the pod is told so, as
   * {@code PodScheduled=False} with reason {@link #WAITING_TO_BIND} (not {@code Unschedulable}: autoscalers must not
   * add nodes for it) and a Normal event, both naming what it waits for. Written once per wait, after the writes
   * already queued.
   */
  public void waitingToBind(Pod pod, String node, String why) {
    String message = "waiting to bind to node " + node + ": " + why;
    writer.execute(() -> {
      CoreV1Api core = new CoreV1Api(client);
      String body = StatusPatches.podCondition(WAITING_TO_BIND, message, now());
      try {
        PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPodStatus(pod.name(), pod.namespace(),
            new V1Patch(body)).buildCall(null), V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
      } catch (ApiException e) {
        LOG.log(System.Logger.Level.DEBUG, "pod " + pod.key() + ": waiting condition not written: HTTP "
            + e.getCode());
      }
      events.send("Pod", pod.namespace(), pod.name(), pod.uid(), "Normal", WAITING_TO_BIND, message);
    });
  }

  /** Events dropped so far because the event queue was full. */
  public long eventsDropped() {
    return events.dropped();
  }

  /** Waits until every write queued so far is done (for tests); false on timeout. */
  boolean awaitWrites(Duration timeout) throws InterruptedException {
    try {
      writer.submit(() -> { }).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  private void drain() {
    Map<String, PodWrite> pods;
    Map<String, String> groups;
    Map<String, String> domains;
    Map<String, SessionResult.QueueStatus> queues;
    synchronized (this) {
      pods = new LinkedHashMap<>(pendingPods);
      groups = new LinkedHashMap<>(pendingGroups);
      domains = new LinkedHashMap<>(pendingDomains);
      pendingDomains.clear();
      queues = new LinkedHashMap<>(pendingQueues);
      pendingPods.clear();
      pendingGroups.clear();
      pendingQueues.clear();
      drainQueued = false;
    }
    writePods(pods);
    writePodGroups(groups);
    writeDomains(domains);
    writeQueues(queues);
  }

  /** {@code volcano.sh/job-allocated-hypernode} on each PodGroup whose job was just placed in a domain. */
  private void writeDomains(Map<String, String> domains) {
    CustomObjectsApi custom = new CustomObjectsApi(client);
    for (Map.Entry<String, String> e : domains.entrySet()) {
      String[] key = e.getKey().split("/", 2);
      V1Patch body = new V1Patch(StatusPatches.allocatedDomain(e.getValue()));
      try {
        PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObject(V1beta1PodGroup.GROUP,
            V1beta1PodGroup.VERSION, key[0], V1beta1PodGroup.PLURAL, key[1], body).buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      } catch (ApiException ex) {
        forget(lastDomain, e.getKey(), e.getValue());
        LOG.log(System.Logger.Level.WARNING, "PodGroup " + e.getKey() + ": " + StatusPatches.ALLOCATED_HYPERNODE
            + " not written: HTTP " + ex.getCode());
      }
    }
  }

  private void writePods(Map<String, PodWrite> pods) {
    CoreV1Api core = new CoreV1Api(client);
    String now = now();
    for (PodWrite w : pods.values()) {
      Pod pod = w.pending().pod();
      String reason = w.pending().reason();
      String nominated = w.pending().nominatedNode();
      String body = StatusPatches.podStatus(w.condition() ? reason : null, w.first() ? now : null, w.nomination(),
          nominated);
      try {
        PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPodStatus(pod.name(), pod.namespace(),
            new V1Patch(body)).buildCall(null), V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
      } catch (ApiException e) {
        if (w.condition()) {
          forget(lastReason, pod.uid(), reason);
        }
        if (w.nomination()) {
          forget(lastNominated, pod.uid(), nominated == null ? "" : nominated);
        }
        LOG.log(System.Logger.Level.WARNING, "pod " + pod.key() + ": status not written: HTTP " + e.getCode());
        continue;
      }
      if (!w.condition()) {
        continue;
      }
      events.send("Pod", pod.namespace(), pod.name(), pod.uid(), "Warning", "FailedScheduling", reason);
    }
  }

  private void writePodGroups(Map<String, String> groups) {
    CustomObjectsApi custom = new CustomObjectsApi(client);
    for (Map.Entry<String, String> e : groups.entrySet()) {
      String[] key = e.getKey().split("/", 2);
      V1Patch body = new V1Patch(e.getValue());
      try {
        try {
          if (subresourceMissing && System.nanoTime() - subresourceMissingSince < REPROBE.toNanos()) {
            throw new ApiException(404, "no status subresource");
          }
          PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObjectStatus(V1beta1PodGroup.GROUP,
              V1beta1PodGroup.VERSION, key[0], V1beta1PodGroup.PLURAL, key[1], body).buildCall(null),
              V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        } catch (ApiException noSubresource) {
          if (noSubresource.getCode() != 404) {
            throw noSubresource;
          }
          // Volcano's own PodGroup CRD has no status subresource: there the status is written on the object, and
          // once that worked the subresource is not tried again (a PodGroup deleted meanwhile 404s on both).
          PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObject(V1beta1PodGroup.GROUP,
              V1beta1PodGroup.VERSION, key[0], V1beta1PodGroup.PLURAL, key[1], body).buildCall(null),
              V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
          if (!subresourceMissing || System.nanoTime() - subresourceMissingSince >= REPROBE.toNanos()) {
            subresourceMissing = true;
            subresourceMissingSince = System.nanoTime();
          }
        }
      } catch (ApiException ex) {
        if (ex.getCode() == 404) {
          // The object is gone (its Job deleted while its pods terminate): stop writing to it, quietly.
          gone(e.getKey());
          continue;
        }
        forget(lastPhase, e.getKey(), null);
        LOG.log(System.Logger.Level.WARNING, "PodGroup " + e.getKey() + ": status not written: HTTP " + ex.getCode());
      }
    }
  }

  /**
   * Merge-patches each Queue's status. Resources the API server showed under status.allocated that the queue no
   * longer holds are cleared: those from an earlier write are nulled in the patch, and any the reply still shows
   * (written by an earlier leader, or before a restart) are nulled by a second patch at once.
   */
  private void writeQueues(Map<String, SessionResult.QueueStatus> queues) {
    CustomObjectsApi custom = new CustomObjectsApi(client);
    for (SessionResult.QueueStatus q : queues.values()) {
      try {
        Object reply = patchQueue(custom, q.name(),
            StatusPatches.queue(q, serverAllocated.getOrDefault(q.name(), Set.of())));
        Set<String> stale = new TreeSet<>(StatusPatches.allocatedNames(reply));
        stale.removeAll(q.allocated().toQuantities().keySet());
        if (!stale.isEmpty()) {
          reply = patchQueue(custom, q.name(), StatusPatches.clearAllocated(stale));
        }
        serverAllocated.put(q.name(), StatusPatches.allocatedNames(reply));
      } catch (ApiException ex) {
        // 404: the implicit default queue has no Queue object; nothing to write.
        if (ex.getCode() != 404) {
          forget(lastQueue, q.name(), null);
          LOG.log(System.Logger.Level.WARNING, "Queue " + q.name() + ": status not written: HTTP " + ex.getCode());
        }
      }
    }
  }

  private Object patchQueue(CustomObjectsApi custom, String name, String body) throws ApiException {
    return PatchUtils.patch(Object.class, () -> custom.patchClusterCustomObjectStatus(V1beta1Queue.GROUP,
        V1beta1Queue.VERSION, V1beta1Queue.PLURAL, name, new V1Patch(body)).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
  }

  /** A status patch found the PodGroup gone: no more writes to it until the cache shows it (again). */
  private void gone(String key) {
    Object version = podGroupVersion.apply(key);
    synchronized (this) {
      goneGroups.put(key, version);
    }
    LOG.log(System.Logger.Level.DEBUG, "PodGroup " + key + " not found: its status is no longer written");
  }

  /**
   * A write failed: forget that it was written, so the next cycle writes it again, unless a newer value has been
   * recorded meanwhile ({@code value} null: whatever is recorded).
   */
  private synchronized void forget(Map<String, String> last, String key, String value) {
    if (value == null) {
      last.remove(key);
    } else {
      last.remove(key, value);
    }
  }

  /** Finishes pending status writes (up to ten seconds), then events (up to five more); drops the rest. */
  @Override
  public void close() throws InterruptedException {
    writer.shutdown();
    writer.awaitTermination(10, TimeUnit.SECONDS);
    writer.shutdownNow();
    events.close(5);
  }
}
