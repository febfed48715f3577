package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.cache.ClusterCache;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.kube.prebind.PreBindSteps;
import io.basalt.model.Pod;
import io.basalt.scheduler.Assumptions;
import io.basalt.session.SessionResult.Binding;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pre-bind step against the fake API server: what it writes (here an annotation on another object, the node, as a
 * volume or claim step would) is there before the binding is posted, stays when the bind lands, and is undone when the
 * bind fails.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PreBindContractTest {
  private static final String KEY = "example.io/reserved-for";

  /** Writes {@value #KEY} on the pod's node, guarded by the node's resourceVersion; removes it on unreserve. */
  private static final class Reserve implements PreBindStep {
    @Override
    public boolean writesBefore(Binding binding, Map<String, String> annotations) {
      return true;
    }

    @Override
    public Result preBind(Binding binding, ApiObjects api) {
      ApiObjects.Meta n = api.read(ApiObjects.Kind.NODE, null, binding.node());
      var r = api.annotate(ApiObjects.Kind.NODE, null, binding.node(), KEY, binding.pod().name(),
          n.resourceVersion());
      return r.ok() ? Result.DONE : new Result(State.FAILED, "reserving", r);
    }

    @Override
    public boolean unreserve(Binding binding, ApiObjects api) {
      ApiObjects.Meta n = api.read(ApiObjects.Kind.NODE, null, binding.node());
      return api.annotate(ApiObjects.Kind.NODE, null, binding.node(), KEY, null, n.resourceVersion()).ok();
    }
  }

  private FakeApiServer server;
  private ClusterCache cache;
  private KubeBinder binder;
  private final Pod pod = TestPods.pod("ml/p1").cpu("1").build();

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}");
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":\"ml\","
        + "\"uid\":\"" + pod.uid() + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
    cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
    cache.putPod(pod);
    binder = new KubeBinder(server.apiClient(), KubeBinder.Options.defaults()
        .withRetries(3, Duration.ofMillis(10), Duration.ofMillis(40)), new PreBindSteps(List.of(new Reserve())));
  }

  @AfterEach
  void stop() throws InterruptedException {
    binder.close();
    server.close();
  }

  private String reserved() {
    JsonObject a = server.get(Resources.NODES, null, "n1").getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a == null || !a.has(KEY) ? null : a.get(KEY).getAsString();
  }

  private void bind() throws InterruptedException {
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of())));
    assertTrue(binder.awaitIdle(Duration.ofSeconds(20)), "binder idle");
  }

  @Test
  void whatPreBindWroteIsThereBeforeTheBindingAndStaysWhenItLands() throws Exception {
    bind();

    assertEquals(1, binder.counters().bindsOk());
    assertEquals("p1", reserved());
    List<RecordedRequest> calls = server.requests(null, "/api/v1/(nodes/n1|namespaces/ml/pods/p1/binding)");
    assertEquals(List.of("GET", "PATCH", "POST"), calls.stream().map(RecordedRequest::method).toList(),
        "read, write, then bind");
  }

  @Test
  void aFailedBindUndoesWhatPreBindWrote() throws Exception {
    server.faults().failNext(1, 403, "POST", "/api/v1/namespaces/ml/pods/p1/binding");

    bind();

    assertEquals(1, binder.counters().bindFailures());
    assertNull(reserved(), "the reservation undone");
    assertEquals(2, server.requests("PATCH", "/api/v1/nodes/n1").size(), "written, then removed");
    assertNull(cache.pod(pod.uid()).nodeName(), "pending again");
  }
}
