package io.basalt.kube.kueue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.basalt.cache.ClusterCache;
import io.basalt.model.Queue;
import io.basalt.model.Toleration;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.util.PatchUtils;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Live mode's admission in Kueue's place ({@code basalt run --kueue instead}): every period it asks {@link KueueLive}
 * for a {@link KueueLive.Plan}, keeps the ClusterQueues and cohorts as queues in the cache, and unsuspends each Job
 * admitted, writing {@code spec.suspend: false} with the flavor's node labels and tolerations and the queue annotation
 * in the pod template (all mutable while a Job is suspended). Jobs whose LocalQueue maps to no ClusterQueue are never
 * touched. Runs beside the scheduling loop, as Kueue's controller would.
 */
public final class KueueController implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(KueueController.class.getName());

  /** How an admitted Job is started; the live one patches it through the API. */
  @FunctionalInterface
  public interface JobStarter {
    void start(KueueLive.Unsuspend job) throws Exception;
  }

  /** How a ProvisioningRequest (and its PodTemplate) is created; the live one posts both through the API. */
  @FunctionalInterface
  public interface Provisioner {
    void create(io.basalt.kube.provisioning.NewRequest request) throws Exception;
  }

  /** How a ClusterQueue's or LocalQueue's status is written; the live one merge-patches the status subresource. */
  @FunctionalInterface
  public interface StatusWriter {
    void write(QueueStatus status, com.google.gson.JsonObject body) throws Exception;
  }

  private final KueueLive state;
  private final ClusterCache cache;
  private StatusWriter statusWriter = (s, b) -> { };
  /** Per queue, its Active condition's value and since when. */
  private final Map<String, Map.Entry<Boolean, java.time.Instant>> activeSince = new HashMap<>();
  /** The status body last written per queue: only a changed one is written again. */
  private final Map<String, String> written = new HashMap<>();
  private final JobStarter starter;
  private Provisioner provisioner = r -> {
    throw new UnsupportedOperationException("no provisioner");
  };
  /** The queues this controller put in the cache, as put: only a changed one is put again. */
  private final Map<String, Queue> ours = new HashMap<>();
  private final Set<String> said = new HashSet<>();
  private ScheduledExecutorService timer;

  public KueueController(KueueLive state, ClusterCache cache, JobStarter starter) {
    this.state = state;
    this.cache = cache;
    this.starter = starter;
  }

  /** A controller patching Jobs and creating ProvisioningRequests through {@code client}. */
  public static KueueController live(KueueLive state, ClusterCache cache, ApiClient client) {
    BatchV1Api batch = new BatchV1Api(client);
    return new KueueController(state, cache, u -> PatchUtils.patch(V1Job.class,
        () -> batch.patchNamespacedJob(u.name(), u.namespace(), new V1Patch(patch(u).toString())).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client))
        .provisioner(io.basalt.kube.provisioning.RequestCalls.live(client)::create)
        .statusWriter(liveStatus(client));
  }

  private static StatusWriter liveStatus(ApiClient client) {
    io.kubernetes.client.openapi.apis.CustomObjectsApi custom =
        new io.kubernetes.client.openapi.apis.CustomObjectsApi(client);
    return (s, json) -> {
      V1Patch body = new V1Patch(json.toString());
      PatchUtils.patch(Object.class, () -> s.clusterQueue()
          ? custom.patchClusterCustomObjectStatus("kueue.x-k8s.io", "v1beta1", "clusterqueues", s.name(), body)
              .buildCall(null)
          : custom.patchNamespacedCustomObjectStatus("kueue.x-k8s.io", "v1beta1", s.namespace(), "localqueues",
              s.name(), body).buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    };
  }

  /** Sets how queue status is written. */
  public KueueController statusWriter(StatusWriter w) {
    this.statusWriter = w;
    return this;
  }

  /** Sets how ProvisioningRequests are created. */
  public KueueController provisioner(Provisioner p) {
    this.provisioner = p;
    return this;
  }

  /** The merge patch that starts an admitted Job. */
  static JsonObject patch(KueueLive.Unsuspend u) {
    JsonObject podSpec = new JsonObject();
    if (!u.nodeSelector().isEmpty()) {
      JsonObject selector = new JsonObject();
      u.nodeSelector().forEach(selector::addProperty);
      podSpec.add("nodeSelector", selector);
    }
    if (!u.tolerations().isEmpty()) {
      JsonArray tolerations = new JsonArray();
      for (Toleration t : u.tolerations()) {
        JsonObject o = new JsonObject();
        o.addProperty("key", t.key());
        o.addProperty("operator", t.operator());
        o.addProperty("value", t.value());
        o.addProperty("effect", t.effect());
        tolerations.add(o);
      }
      podSpec.add("tolerations", tolerations);
    }
    JsonObject annotations = new JsonObject();
    annotations.addProperty(KueueLive.QUEUE_ANNOTATION, u.clusterQueue());
    u.annotations().forEach(annotations::addProperty);
    JsonObject meta = new JsonObject();
    meta.add("annotations", annotations);
    JsonObject template = new JsonObject();
    template.add("metadata", meta);
    template.add("spec", podSpec);
    JsonObject spec = new JsonObject();
    spec.addProperty("suspend", false);
    spec.add("template", template);
    JsonObject body = new JsonObject();
    body.add("spec", spec);
    return body;
  }

  /** Runs {@link #runOnce} every {@code period} on a thread of its own until {@link #close}. */
  public synchronized KueueController start(Duration period) {
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "basalt-kueue-admission");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(() -> {
      try {
        runOnce();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Kueue admission pass failed; retrying next period", e);
      }
    }, 0, Math.max(1, period.toMillis()), TimeUnit.MILLISECONDS);
    return this;
  }

  /** One pass: queues into the cache, admitted Jobs started; returns the Jobs started. */
  public synchronized List<KueueLive.Unsuspend> runOnce() {
    KueueLive.Plan plan = state.plan(name -> cache.hasQueue(name) && !ours.containsKey(name), room());
    Map<String, Queue> now = new HashMap<>();
    for (Queue q : plan.queues()) {
      now.put(q.name(), q);
      if (!q.equals(ours.get(q.name()))) {
        cache.putQueue(q);
      }
    }
    for (String gone : ours.keySet()) {
      if (!now.containsKey(gone)) {
        cache.removeQueue(gone);
      }
    }
    ours.clear();
    ours.putAll(now);
    if (said.size() > 10_000) { // lines carry usage numbers: forget old ones rather than grow forever
      said.clear();
    }
    for (String w : plan.warnings()) {
      if (said.add(w)) {
        LOG.log(Level.INFO, w);
      }
    }
    for (io.basalt.kube.provisioning.NewRequest r : plan.provision()) {
      try {
        provisioner.create(r);
        LOG.log(Level.INFO, "Kueue: created ProvisioningRequest " + r.key() + " (class " + r.className() + ", "
            + r.count() + " pods) for Job " + r.namespace() + "/" + r.ownerName());
      } catch (Exception e) {
        state.provisionFailed(r);
        LOG.log(Level.WARNING, "Kueue: creating ProvisioningRequest " + r.key() + " failed (retried next pass): "
            + e);
      }
    }
    for (KueueLive.Unsuspend u : plan.unsuspend()) {
      try {
        starter.start(u);
        LOG.log(Level.INFO, "Kueue: admitted Job " + u.key() + " in ClusterQueue " + u.clusterQueue()
            + " (flavors " + u.flavors() + "): unsuspended");
      } catch (Exception e) {
        state.failed(u);
        LOG.log(Level.WARNING, "Kueue: unsuspending Job " + u.key() + " failed (retried next pass): " + e);
      }
    }
    Map<String, String> now2 = new HashMap<>();
    for (QueueStatus st : plan.statuses()) {
      String key = (st.clusterQueue() ? "ClusterQueue " : "LocalQueue ") + st.key();
      String body = st.body(java.time.Instant.EPOCH).toString();
      now2.put(key, body);
      if (body.equals(written.get(key))) {
        continue;
      }
      Map.Entry<Boolean, java.time.Instant> since = activeSince.get(key);
      if (since == null || since.getKey() != st.active()) {
        since = Map.entry(st.active(), java.time.Instant.now());
        activeSince.put(key, since);
      }
      try {
        statusWriter.write(st, st.body(since.getValue()));
        written.put(key, body);
      } catch (Exception e) {
        LOG.log(Level.DEBUG, "Kueue: writing the status of " + key + " failed (retried next pass): " + e);
      }
    }
    written.keySet().retainAll(now2.keySet());
    activeSince.keySet().retainAll(now2.keySet());
    return plan.unsuspend();
  }

  /** The cache's free room now: nodes less what the pods on them request. */
  private KueueLive.Room room() {
    List<List<?>> read = new java.util.ArrayList<>(); // read once, and only when a Job asks: most passes do not
    return (job, selector, tolerations) -> {
      if (read.isEmpty()) {
        read.add(cache.nodes());
        read.add(cache.pods());
      }
      @SuppressWarnings("unchecked")
      List<io.basalt.model.Node> nodes = (List<io.basalt.model.Node>) read.get(0);
      @SuppressWarnings("unchecked")
      List<io.basalt.model.Pod> pods = (List<io.basalt.model.Pod>) read.get(1);
      return io.basalt.kube.provisioning.ClusterRoom.holds(nodes, pods, job.podRequest(), job.pods(), selector,
          tolerations);
    };
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
