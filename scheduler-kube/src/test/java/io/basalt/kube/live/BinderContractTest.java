package io.basalt.kube.live;

import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.basalt.cache.ClusterCache;
import io.basalt.model.Pod;
import io.basalt.scheduler.Assumptions;
import io.basalt.session.SessionResult.Binding;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP contract of {@link KubeBinder}'s binding: the exact request it sends ({@code POST pods/{name}/binding}
 * with a v1 Binding) and what it makes of the API server's exact replies (201 Status, 409 read back, 5xx and 429
 * retried, 404 final, no answer at the last attempt read back).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class BinderContractTest {
  @RegisterExtension
  static WireMockExtension wm = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort())
      .failOnUnmatchedRequests(true).build();

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String GPU = "basalt.io/gpu-devices";
  private static final String BIND = "/api/v1/namespaces/ml/pods/p1/binding";
  private static final String POD = "/api/v1/namespaces/ml/pods/p1";

  private ClusterCache cache;
  private KubeBinder binder;
  private Pod pod;
  private final List<String> boundTo = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
    binder = newBinder(KubeBinder.Options.defaults().withRetries(3, Duration.ofMillis(10), Duration.ofMillis(40)));
    pod = TestPods.pod("ml/p1").gpu(1).annotation("keep", "me").build();
    cache.putPod(pod);
  }

  private KubeBinder newBinder(KubeBinder.Options options) {
    KubeBinder b = new KubeBinder(KubeReplies.client(wm), options);
    b.onBound((p, node) -> boundTo.add(p.name() + "@" + node));
    return b;
  }

  @AfterEach
  void stop() throws InterruptedException {
    binder.close();
  }

  private void bindTo(String node, Map<String, String> annotations) throws InterruptedException {
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, node, annotations)));
    assertTrue(binder.awaitIdle(WAIT), "binder idle");
  }

  private static String bindingBody(String node, String annotationsJson) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p1\",\"namespace\":\"ml\","
        + "\"uid\":\"ml-p1-uid\"" + (annotationsJson == null ? "" : ",\"annotations\":" + annotationsJson) + "},"
        + "\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"" + node + "\"}}";
  }

  private void assertRolledBack() {
    Pod now = cache.pod(pod.uid());
    assertNull(now.nodeName(), "pending again in the cache");
    assertEquals(pod, now, "the original pod, without the assumed annotations");
    assertEquals(List.of(), boundTo, "no Scheduled notification");
  }

  @Test
  void postsOneBindingWithNodeUidAndAnnotationsAndCountsThe201StatusAsBound() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(201, KubeReplies.createdStatus())));

    bindTo("n1", Map.of(GPU, "0,1"));

    List<LoggedRequest> posts = wm.findAll(postRequestedFor(urlEqualTo(BIND))
        .withHeader("Content-Type", matching("application/json(;.*)?"))
        .withHeader("Accept", equalTo("application/json")));
    assertEquals(1, posts.size(), "one POST of the binding");
    assertEquals(KubeReplies.parse(bindingBody("n1", "{\"" + GPU + "\":\"0,1\"}")), KubeReplies.sent(posts.get(0)),
        "a v1 Binding: pod name, namespace and uid, the annotations, target Node n1; nothing else");
    wm.verify(0, patchRequestedFor(anyUrl())); // annotations travel in the binding, no separate patch
    wm.verify(0, getRequestedFor(anyUrl()));
    KubeBinder.Counters c = binder.counters();
    assertEquals(1, c.bindsOk(), "the v1 Status reply (not a Binding) is success: kubernetes/kubernetes#80663");
    assertEquals(0, c.bindFailures());
    assertEquals(0, c.retries());
    assertEquals("n1", cache.pod(pod.uid()).nodeName(), "the assumption stays for the informer to confirm");
    assertEquals("0,1", cache.pod(pod.uid()).annotations().get(GPU));
    assertEquals(List.of("p1@n1"), boundTo);
  }

  @Test
  void noAnnotationsMeansNoAnnotationsField() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(201, KubeReplies.createdStatus())));

    bindTo("n1", Map.of());

    List<LoggedRequest> posts = wm.findAll(postRequestedFor(urlEqualTo(BIND)));
    assertEquals(1, posts.size());
    assertEquals(KubeReplies.parse(bindingBody("n1", null)), KubeReplies.sent(posts.get(0)));
    assertEquals(1, binder.counters().bindsOk());
  }

  @Test
  void conflictReadsThePodBackAndOnOurNodeIsSuccess() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(409,
        KubeReplies.conflict("pods/binding", "p1", "pod p1 is already assigned to node \"n1\""))));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), "n1"))));

    bindTo("n1", Map.of(GPU, "0"));

    wm.verify(exactly(1), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(1), getRequestedFor(urlEqualTo(POD)));
    assertEquals(1, binder.counters().bindsOk(), "an earlier attempt landed");
    assertEquals(0, binder.counters().bindFailures());
    assertEquals(0, binder.counters().retries());
    assertEquals("n1", cache.pod(pod.uid()).nodeName());
    assertEquals(List.of("p1@n1"), boundTo);
  }

  @Test
  void conflictWithThePodOnAnotherNodeIsALostRaceWithoutMorePosts() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(409,
        KubeReplies.conflict("pods/binding", "p1", "pod p1 is already assigned to node \"n2\""))));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), "n2"))));

    bindTo("n1", Map.of(GPU, "0"));

    wm.verify(exactly(1), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(1), getRequestedFor(urlEqualTo(POD)));
    assertEquals(1, binder.counters().lostRaces());
    assertEquals(1, binder.counters().bindFailures());
    assertEquals(0, binder.counters().retries());
    assertRolledBack();
  }

  @Test
  void conflictWithThePodStillPendingIsAFailureWithoutMorePosts() throws Exception {
    // e.g. the pod is being deleted: the registry refuses with a Conflict and the pod has no node yet
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(409,
        KubeReplies.conflict("pods/binding", "p1", "pod p1 is being deleted, cannot be assigned to a host"))));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), null))));

    bindTo("n1", Map.of());

    wm.verify(exactly(1), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(1), getRequestedFor(urlEqualTo(POD)));
    assertEquals(1, binder.counters().bindFailures());
    assertEquals(0, binder.counters().lostRaces());
    assertEquals(0, binder.counters().retries());
    assertRolledBack();
  }

  @Test
  void conflictWithThePodRecreatedUnderTheSameNameIsAFailure() throws Exception {
    // the binding's uid is a storage precondition: storeerr.InterpretUpdateError turns its failure into a Conflict
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(409, KubeReplies.conflict("pods", "p1",
        "StorageError: invalid object, Code: 4, Key: /registry/pods/ml/p1, ResourceVersion: 0, AdditionalErrorMsg: "
            + "Precondition failed: UID in precondition: ml-p1-uid, UID in object meta: other-uid"))));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", "other-uid", "n1"))));

    bindTo("n1", Map.of());

    wm.verify(exactly(1), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(1), getRequestedFor(urlEqualTo(POD)));
    assertEquals(0, binder.counters().bindsOk(), "n1 holds another pod of that name, not ours");
    assertEquals(1, binder.counters().bindFailures());
    assertRolledBack();
  }

  @Test
  void serverErrorIsRetriedWithBackoffThenBindsWithExactlyThreePosts() throws Exception {
    binder.close();
    binder = newBinder(KubeBinder.Options.defaults().withRetries(5, Duration.ofMillis(60), Duration.ofMillis(1_000)));
    KubeReplies.inTurn(wm, () -> post(BIND),
        KubeReplies.json(500, KubeReplies.internalError("etcdserver: request timed out")),
        KubeReplies.json(500, KubeReplies.internalError("etcdserver: request timed out")),
        KubeReplies.json(201, KubeReplies.createdStatus()));

    bindTo("n1", Map.of(GPU, "1"));

    List<LoggedRequest> posts = wm.findAll(postRequestedFor(urlEqualTo(BIND)));
    assertEquals(3, posts.size(), "two failures, then the success; nothing after it");
    for (LoggedRequest r : posts) {
      assertEquals(KubeReplies.parse(bindingBody("n1", "{\"" + GPU + "\":\"1\"}")), KubeReplies.sent(r),
          "every attempt sends the same binding");
    }
    long first = posts.get(1).getLoggedDate().getTime() - posts.get(0).getLoggedDate().getTime();
    long second = posts.get(2).getLoggedDate().getTime() - posts.get(1).getLoggedDate().getTime();
    assertTrue(first >= 55, "waited the initial backoff (60 ms) before the 2nd attempt: " + first + " ms");
    assertTrue(second >= 115, "doubled (120 ms) before the 3rd: " + second + " ms");
    assertEquals(1, binder.counters().bindsOk());
    assertEquals(2, binder.counters().retries());
    assertEquals(List.of("p1@n1"), boundTo);
  }

  @Test
  void anUnansweredLastAttemptIsReadBackAndOnOurNodeIsSuccessElsePending() throws Exception {
    binder.close();
    binder = newBinder(KubeBinder.Options.defaults().withRetries(2, Duration.ofMillis(10), Duration.ofMillis(40))
        .withTimeouts(Duration.ofMillis(100), Duration.ofSeconds(5)));
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(201, KubeReplies.createdStatus()).withFixedDelay(500)));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), "n1"))));

    bindTo("n1", Map.of(GPU, "0"));

    wm.verify(exactly(2), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(1), getRequestedFor(urlEqualTo(POD)));
    assertEquals(1, binder.counters().bindsOk(), "the binding landed though no answer came");
    assertEquals(List.of("p1@n1"), boundTo);

    wm.resetRequests();
    boundTo.clear();
    cache.putPod(pod);
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), null))));
    bindTo("n1", Map.of(GPU, "0"));
    assertEquals(1, binder.counters().bindFailures(), "still pending: the bind failed");
    assertRolledBack();
  }

  @Test
  void serverErrorsStopAtMaxAttemptsThenThePodIsReadBackAndStillPendingRollsBack() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(500, KubeReplies.internalError("etcdserver: leader changed"))));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), null))));

    bindTo("n1", Map.of(GPU, "1"));

    wm.verify(exactly(3), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(1), getRequestedFor(urlEqualTo(POD)));
    assertEquals(1, binder.counters().bindFailures());
    assertRolledBack();
  }

  @Test
  void aBindAppliedButAnswered500IsReadBackAndCountsAsBoundNotRolledBack() throws Exception {
    // The hardening issue's bug: the server applied a binding and answered 500; rolling it back freed the room the
    // pod runs in, and the next cycle gave it to another pod.
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(500, KubeReplies.internalError("etcdserver: request timed out"))));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), "n1"))));

    bindTo("n1", Map.of(GPU, "1"));

    wm.verify(exactly(3), postRequestedFor(urlEqualTo(BIND)));
    assertEquals(1, binder.counters().bindsOk(), "the binding landed though every answer was 500");
    assertEquals(0, binder.counters().bindFailures());
    assertEquals(List.of("p1@n1"), boundTo);
    assertEquals("n1", cache.pod(pod.uid()).nodeName(), "its room stays taken");
    assertEquals(Map.of(), cache.snapshot().nominations());
  }

  @Test
  void aReadBackWithoutAnAnswerIsRetriedWhileTheRoomStaysTaken() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(503, KubeReplies.internalError("apiserver down"))));
    KubeReplies.inTurn(wm, () -> get(POD),
        KubeReplies.json(503, KubeReplies.internalError("apiserver down")),
        KubeReplies.json(503, KubeReplies.internalError("apiserver down")),
        KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), "n1")));

    bindTo("n1", Map.of());

    wm.verify(exactly(3), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(exactly(3), getRequestedFor(urlEqualTo(POD)));
    assertEquals(1, binder.counters().bindsOk(), "never called failed while the outcome was unknown");
    assertEquals(0, binder.counters().bindFailures());
    assertEquals("n1", cache.pod(pod.uid()).nodeName());
  }

  @Test
  void aThrottledLastAttemptAfterAnEarlier500IsReadBack() throws Exception {
    KubeReplies.inTurn(wm, () -> post(BIND),
        KubeReplies.json(500, KubeReplies.internalError("etcdserver: request timed out")),
        KubeReplies.throttled(0), KubeReplies.throttled(0));
    wm.stubFor(get(POD).willReturn(KubeReplies.json(200, KubeReplies.pod("ml", "p1", pod.uid(), "n1"))));

    bindTo("n1", Map.of());

    assertEquals(1, binder.counters().bindsOk(), "the first attempt landed; the 429s say nothing about it");
    assertEquals("n1", cache.pod(pod.uid()).nodeName());
  }

  @Test
  void throttled429WithRetryAfterIsRetried() throws Exception {
    KubeReplies.inTurn(wm, () -> post(BIND), KubeReplies.throttled(1),
        KubeReplies.json(201, KubeReplies.createdStatus()));

    bindTo("n1", Map.of());

    wm.verify(exactly(2), postRequestedFor(urlEqualTo(BIND)));
    assertEquals(1, binder.counters().bindsOk());
    assertEquals(1, binder.counters().retries());
  }

  @Test
  void throttled429WaitsTheRetryAfterTheServerAsksFor() throws Exception {
    KubeReplies.inTurn(wm, () -> post(BIND), KubeReplies.throttled(1),
        KubeReplies.json(201, KubeReplies.createdStatus()));

    bindTo("n1", Map.of());

    List<LoggedRequest> posts = wm.findAll(postRequestedFor(urlEqualTo(BIND)));
    assertEquals(2, posts.size());
    long gap = posts.get(1).getLoggedDate().getTime() - posts.get(0).getLoggedDate().getTime();
    assertTrue(gap >= 950, "second attempt only after Retry-After: 1 s; was " + gap + " ms");
  }

  @Test
  void podGoneIsNotRetriedAndNotReadBack() throws Exception {
    wm.stubFor(post(BIND).willReturn(KubeReplies.json(404, KubeReplies.notFound("", "pods", "p1"))));

    bindTo("n1", Map.of(GPU, "0"));

    wm.verify(exactly(1), postRequestedFor(urlEqualTo(BIND)));
    wm.verify(0, getRequestedFor(anyUrl()));
    assertEquals(1, binder.counters().bindFailures());
    assertEquals(0, binder.counters().retries());
    assertRolledBack();
  }
}
