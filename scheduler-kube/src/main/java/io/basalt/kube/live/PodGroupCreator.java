package io.basalt.kube.live;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.basalt.kube.gang.GroupInference;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.model.OwnerReference;
import io.basalt.model.PodGroup;
import io.basalt.scheduler.StatusSink;
import io.basalt.session.SessionResult;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import java.net.HttpURLConnection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code basalt run --create-podgroups}: writes a Volcano PodGroup object ({@code scheduling.volcano.sh/v1beta1}) for
 * each gang Basalt inferred (a Job's, a JobSet's, a Kueue pod group, ...; not a coscheduling group, which has its own
 * object), as Volcano's podgroup controller would, so tools reading PodGroups see the gang. Owned by the workload
 * when the group has one, so it is garbage-collected with it.
 *
 * <p>Each group is created once: a 409 means someone made it, which is as good. From then on it is an ordinary
 * PodGroup object, which the informer reads and whose status is written as for any other. A failure is logged once
 * per group with its HTTP code; a transient one (5xx, 429, no answer) is tried again at a later cycle, others not.
 * Creation runs on its own thread, so it never holds up a cycle.
 */
public final class PodGroupCreator implements StatusSink, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(PodGroupCreator.class.getName());

  private final ApiClient client;
  private final Function<String, PodGroup> groups;
  private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "basalt-podgroup-create");
    t.setDaemon(true);
    return t;
  });
  /** Groups created, queued, found to exist or failed for good; forgotten once their job is gone (guarded). */
  private final Set<String> handled = new HashSet<>();
  /** Groups whose failure was logged (guarded by this). */
  private final Set<String> logged = new HashSet<>();

  /** @param groups the group the next cycle sees under a key ({@code ClusterCache::podGroup}) */
  public PodGroupCreator(ApiClient client, Function<String, PodGroup> groups) {
    this.client = client;
    this.groups = groups;
  }

  @Override
  public synchronized void update(SessionResult result) {
    Set<String> now = new HashSet<>();
    for (SessionResult.JobStatus j : result.jobs()) {
      now.add(j.key());
      if (j.inferredFrom() == null || handled.contains(j.key())) {
        continue;
      }
      PodGroup pg = groups.apply(j.key());
      if (pg != null && GroupInference.wantsPodGroupObject(pg)) {
        handled.add(j.key());
        writer.execute(() -> create(pg));
      }
    }
    handled.retainAll(now);
    logged.retainAll(now);
  }

  private void create(PodGroup pg) {
    try {
      new CustomObjectsApi(client).createNamespacedCustomObject(V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION,
          pg.namespace(), V1beta1PodGroup.PLURAL, body(pg)).execute();
      LOG.log(System.Logger.Level.INFO, "PodGroup " + pg.key() + " created for " + pg.inferredFrom());
    } catch (ApiException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        failed(pg, e.getCode());
      }
    } catch (RuntimeException e) {
      failed(pg, 0);
    }
  }

  /** Logs a failure once per group; lets a transient one (5xx, 429, no answer: code 0) be tried again. */
  private void failed(PodGroup pg, int code) {
    boolean retry = code == 0 || code == 429 || code >= 500;
    synchronized (this) {
      if (retry) {
        handled.remove(pg.key());
      }
      if (!logged.add(pg.key())) {
        return;
      }
    }
    String hint = retry ? " (will retry)" : code == HttpURLConnection.HTTP_NOT_FOUND
        ? " (Volcano's PodGroup CRD not installed?)" : code == HttpURLConnection.HTTP_FORBIDDEN
        ? " (grant create on scheduling.volcano.sh podgroups)" : "";
    LOG.log(System.Logger.Level.WARNING, "PodGroup " + pg.key() + " for " + pg.inferredFrom() + " not created: HTTP "
        + code + hint);
  }

  /** The PodGroup object, as Volcano's podgroup controller writes one: spec, and the owner as controller. */
  static JsonObject body(PodGroup pg) {
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", pg.name());
    metadata.addProperty("namespace", pg.namespace());
    OwnerReference owner = pg.owner();
    if (owner != null) {
      JsonObject ref = new JsonObject();
      ref.addProperty("apiVersion", owner.apiVersion());
      ref.addProperty("kind", owner.kind());
      ref.addProperty("name", owner.name());
      ref.addProperty("uid", owner.uid());
      ref.addProperty("controller", true);
      JsonArray refs = new JsonArray();
      refs.add(ref);
      metadata.add("ownerReferences", refs);
    }
    JsonObject spec = new JsonObject();
    spec.addProperty("minMember", pg.minMember());
    spec.addProperty("queue", pg.queue());
    if (pg.priorityClassName() != null) {
      spec.addProperty("priorityClassName", pg.priorityClassName());
    }
    if (pg.minResources() != null && !pg.minResources().toQuantities().isEmpty()) {
      JsonObject min = new JsonObject();
      for (Map.Entry<String, String> e : pg.minResources().toQuantities().entrySet()) {
        min.addProperty(e.getKey(), e.getValue());
      }
      spec.add("minResources", min);
    }
    JsonObject o = new JsonObject();
    o.addProperty("apiVersion", V1beta1PodGroup.API_VERSION);
    o.addProperty("kind", V1beta1PodGroup.KIND);
    o.add("metadata", metadata);
    o.add("spec", spec);
    return o;
  }

  /** Finishes creations under way (up to five seconds), then drops the rest. */
  @Override
  public void close() throws InterruptedException {
    writer.shutdown();
    writer.awaitTermination(5, TimeUnit.SECONDS);
    writer.shutdownNow();
  }
}
