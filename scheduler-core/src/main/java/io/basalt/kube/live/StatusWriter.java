package io.basalt.kube.live;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.basalt.framework.SessionResult;
import io.basalt.kube.volcano.V1beta1PodGroup;
import io.basalt.kube.volcano.V1beta1Queue;
import io.basalt.model.Pod;
import io.basalt.scheduler.StatusSink;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes back what a session decided, as users know it from kube-scheduler and Volcano: a pending pod gets condition
 * {@code PodScheduled=False}, reason {@code Unschedulable}, with the reason as message (so Cluster Autoscaler and
 * Karpenter react) and a {@code FailedScheduling} Warning event; a bound pod a {@code Scheduled} event; a PodGroup
 * its {@code status.phase}, {@code running} count and conditions; a Queue its {@code status.allocated} and PodGroup
 * counts. Status is written on one background thread (in order per object), and only when the value changed since
 * the last write, so status never dominates API traffic. Events go through a few threads of their own and are best
 * effort, as client-go's broadcaster makes them: when a burst outruns the API server (thousands of pods bound in a
 * few seconds), what does not fit the queue is dropped and counted rather than held in memory.
 */
public final class StatusWriter implements StatusSink, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(StatusWriter.class.getName());

  private final ApiClient client;
  private final CoreV1Api eventApi;
  private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "basalt-status");
    t.setDaemon(true);
    return t;
  });
  /** Events waiting for the API server beyond this are dropped. */
  static final int EVENT_QUEUE = 1000;
  private final AtomicLong eventsDropped = new AtomicLong();
  private volatile long lastDropLog;
  /** Events in flight at once: each is one round trip, and a cycle can bind thousands of pods. */
  static final int EVENT_SENDERS = 16;
  private final ThreadPoolExecutor events = new ThreadPoolExecutor(EVENT_SENDERS, EVENT_SENDERS, 30, TimeUnit.SECONDS,
      new ArrayBlockingQueue<>(EVENT_QUEUE), r -> {
        Thread t = new Thread(r, "basalt-events");
        t.setDaemon(true);
        return t;
      }, (task, pool) -> dropped());
  private final Map<String, String> lastReason = new HashMap<>();
  private final Map<String, String> lastPhase = new HashMap<>();
  private final Map<String, String> lastQueue = new HashMap<>();
  /** Per queue, every resource name ever written under status.allocated, so one that drops to zero is removed. */
  private final Map<String, Set<String>> allocatedKeys = new HashMap<>();

  /** One pod condition to write; {@code first} when no condition was written for it before (sets the time). */
  private record PodWrite(SessionResult.PendingPod pending, boolean first) {}
  /** Until a 404 says otherwise: PodGroup status goes to the status subresource (a CRD may define one). */
  private boolean podGroupStatusSubresource = true;

  public StatusWriter(ApiClient client) {
    this(client, client);
  }

  /**
   * @param eventClient for events only: a client with its own rate limit, as kube-scheduler keeps one, so a burst
   *     of events never slows binding and status writes down
   */
  public StatusWriter(ApiClient client, ApiClient eventClient) {
    this.client = client;
    this.eventApi = new CoreV1Api(eventClient);
  }

  @Override
  public synchronized void update(SessionResult result) {
    Map<String, PodWrite> pods = new HashMap<>();
    Set<String> pendingNow = new HashSet<>();
    for (SessionResult.PendingPod p : result.pending()) {
      pendingNow.add(p.pod().uid());
      String before = lastReason.put(p.pod().uid(), p.reason());
      if (!p.reason().equals(before)) {
        pods.put(p.pod().uid(), new PodWrite(p, before == null));
      }
    }
    // Forget pods no longer pending (bound or gone) and finished jobs, so the memory stays bounded.
    lastReason.keySet().retainAll(pendingNow);
    Map<String, String> phases = new HashMap<>();
    Set<String> jobsNow = new HashSet<>();
    for (SessionResult.JobStatus j : result.jobs()) {
      jobsNow.add(j.key());
      String body = j.implicit() ? null : podGroupStatus(j);
      if (body != null && !body.equals(lastPhase.put(j.key(), body))) {
        phases.put(j.key(), body);
      }
    }
    lastPhase.keySet().retainAll(jobsNow);
    Map<String, String> queues = new HashMap<>();
    for (SessionResult.QueueStatus q : result.queues()) {
      String body = queueStatus(q, Set.of());
      if (!body.equals(lastQueue.put(q.name(), body))) {
        Set<String> sent = allocatedKeys.computeIfAbsent(q.name(), k -> new HashSet<>());
        queues.put(q.name(), queueStatus(q, sent));
        sent.addAll(q.allocated().toQuantities().keySet());
      }
    }
    if (!pods.isEmpty() || !phases.isEmpty() || !queues.isEmpty()) {
      writer.execute(() -> {
        write(pods, phases);
        writeQueues(queues);
      });
    }
  }

  /** Records {@code Scheduled} once the binder says the pod is bound. */
  public void bound(Pod pod, String node) {
    events.execute(() -> event(eventApi, pod, "Scheduled", "Normal",
        "Successfully assigned " + pod.key() + " to " + node));
  }

  /** Events dropped so far because the queue was full. */
  public long eventsDropped() {
    return eventsDropped.get();
  }

  private void dropped() {
    long n = eventsDropped.incrementAndGet();
    long now = System.nanoTime();
    if (now - lastDropLog > TimeUnit.MINUTES.toNanos(1) || n == 1) {
      lastDropLog = now;
      LOG.log(System.Logger.Level.WARNING, n + " event(s) dropped so far: more than " + EVENT_QUEUE
          + " waiting for the API server");
    }
  }

  /** A merge patch of the PodGroup's status: phase, running count, conditions as Volcano writes them. */
  private static String podGroupStatus(SessionResult.JobStatus j) {
    JsonObject status = new JsonObject();
    status.addProperty("phase", j.phase());
    status.addProperty("running", j.scheduled());
    JsonArray conditions = new JsonArray();
    for (io.basalt.framework.JobCondition c : j.conditions()) {
      JsonObject o = new JsonObject();
      o.addProperty("type", c.type());
      o.addProperty("status", c.status());
      o.addProperty("reason", c.reason());
      o.addProperty("message", c.message());
      conditions.add(o);
    }
    if (!conditions.isEmpty()) {
      status.add("conditions", conditions);
    }
    JsonObject body = new JsonObject();
    body.add("status", status);
    return body.toString();
  }

  /**
   * A merge patch of the Queue's status: allocated per resource and its PodGroups by phase. Resources in
   * {@code written} but no longer allocated are sent as null: a merge patch keeps every key it does not mention.
   */
  private static String queueStatus(SessionResult.QueueStatus q, Set<String> written) {
    JsonObject status = new JsonObject();
    JsonObject allocated = new JsonObject();
    Map<String, String> now = q.allocated().toQuantities();
    for (String gone : new TreeSet<>(written)) {
      if (!now.containsKey(gone)) {
        allocated.add(gone, JsonNull.INSTANCE);
      }
    }
    now.forEach(allocated::addProperty);
    status.add("allocated", allocated);
    status.addProperty("pending", q.pending());
    status.addProperty("inqueue", q.inqueue());
    status.addProperty("running", q.running());
    JsonObject body = new JsonObject();
    body.add("status", status);
    return body.toString();
  }

  private void writeQueues(Map<String, String> queues) {
    CustomObjectsApi custom = new CustomObjectsApi(client);
    for (Map.Entry<String, String> e : queues.entrySet()) {
      try {
        PatchUtils.patch(Object.class,
            () -> custom.patchClusterCustomObjectStatus(V1beta1Queue.GROUP, V1beta1Queue.VERSION,
                V1beta1Queue.PLURAL, e.getKey(), new V1Patch(e.getValue())).buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      } catch (ApiException ex) {
        // 404: the implicit default queue has no Queue object; nothing to write.
        if (ex.getCode() != 404) {
          forget(lastQueue, e.getKey());
          LOG.log(System.Logger.Level.WARNING, "Queue " + e.getKey() + ": status not written: HTTP " + ex.getCode());
        }
      }
    }
  }

  private void write(Map<String, PodWrite> pods, Map<String, String> phases) {
    CoreV1Api core = new CoreV1Api(client);
    String now = OffsetDateTime.now(ZoneOffset.UTC).withNano(0).toString();
    for (PodWrite w : pods.values()) {
      SessionResult.PendingPod p = w.pending();
      // The condition's status stays False when only the reason changes: its transition time stays too.
      String body = "{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\","
          + "\"reason\":\"Unschedulable\",\"message\":" + quote(p.reason())
          + (w.first() ? ",\"lastTransitionTime\":\"" + now + "\"" : "") + "}]}}";
      try {
        PatchUtils.patch(io.kubernetes.client.openapi.models.V1Pod.class,
            () -> core.patchNamespacedPodStatus(p.pod().name(), p.pod().namespace(), new V1Patch(body))
                .buildCall(null),
            V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
      } catch (ApiException e) {
        forget(lastReason, p.pod().uid());
        LOG.log(System.Logger.Level.WARNING, "pod " + p.pod().key() + ": status not written: HTTP " + e.getCode());
        continue;
      }
      events.execute(() -> event(eventApi, p.pod(), "FailedScheduling", "Warning", p.reason()));
    }
    CustomObjectsApi custom = new CustomObjectsApi(client);
    for (Map.Entry<String, String> e : phases.entrySet()) {
      String[] key = e.getKey().split("/", 2);
      String body = e.getValue();
      try {
        try {
          if (!podGroupStatusSubresource) {
            throw new ApiException(404, "no status subresource");
          }
          PatchUtils.patch(Object.class,
              () -> custom.patchNamespacedCustomObjectStatus(V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION, key[0],
                  V1beta1PodGroup.PLURAL, key[1], new V1Patch(body)).buildCall(null),
              V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
        } catch (ApiException noSubresource) {
          if (noSubresource.getCode() != 404) {
            throw noSubresource;
          }
          // Volcano's own PodGroup CRD has no status subresource: there the status is written on the object, and
          // once that worked the subresource is not tried again (a PodGroup deleted meanwhile 404s on both).
          PatchUtils.patch(Object.class,
              () -> custom.patchNamespacedCustomObject(V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION, key[0],
                  V1beta1PodGroup.PLURAL, key[1], new V1Patch(body)).buildCall(null),
              V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
          podGroupStatusSubresource = false;
        }
      } catch (ApiException ex) {
        forget(lastPhase, e.getKey());
        LOG.log(System.Logger.Level.WARNING, "PodGroup " + e.getKey() + ": status not written: HTTP " + ex.getCode());
      }
    }
  }

  private static void event(CoreV1Api core, Pod pod, String reason, String type, String message) {
    EventRecorder.record(core, "Pod", pod.namespace(), pod.name(), pod.uid(), type, reason, message);
  }

  private synchronized void forget(Map<String, String> last, String key) {
    last.remove(key);
  }

  private static String quote(String s) {
    return new JsonPrimitive(s).toString();
  }

  /** Finishes pending status writes (up to ten seconds), then events (up to five more); drops the rest. */
  @Override
  public void close() throws InterruptedException {
    writer.shutdown();
    writer.awaitTermination(10, TimeUnit.SECONDS);
    events.shutdown();
    if (!events.awaitTermination(5, TimeUnit.SECONDS)) {
      LOG.log(System.Logger.Level.INFO, events.shutdownNow().size() + " event(s) not sent at shutdown");
    }
    if (eventsDropped.get() > 0) {
      LOG.log(System.Logger.Level.INFO, eventsDropped.get() + " event(s) dropped in all (queue full)");
    }
    writer.shutdownNow();
  }
}
