package io.basalt.kube.live;

import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.google.gson.JsonObject;
import io.basalt.api.JobCondition;
import io.basalt.api.PodGroupPhase;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import io.basalt.session.SessionResult;
import io.basalt.testing.Await;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP contract of {@link StatusWriter}: the PodScheduled condition by strategic merge patch on pods/status,
 * FailedScheduling and Scheduled events, PodGroup and Queue status by JSON merge patch, and writing only on change.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class StatusWriterContractTest {
  @RegisterExtension
  static WireMockExtension wm = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort())
      .failOnUnmatchedRequests(true).build();

  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final String POD_STATUS = "/api/v1/namespaces/ml/pods/p/status";
  private static final String EVENTS = "/api/v1/namespaces/ml/events";
  private static final String PG = "/apis/scheduling.volcano.sh/v1beta1/namespaces/ml/podgroups/g";
  private static final String QUEUE_STATUS = "/apis/scheduling.volcano.sh/v1beta1/queues/team-a/status";
  private static final String SMP = "application/strategic-merge-patch\\+json(; ?charset=(?i)utf-8)?";
  private static final String MERGE = "application/merge-patch\\+json(; ?charset=(?i)utf-8)?";
  private static final String RFC3339 = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z";

  private final Pod pod = TestPods.pod("ml/p").build();
  private StatusWriter writer;

  @BeforeEach
  void start() {
    writer = new StatusWriter(KubeReplies.client(wm));
    // the API server answers a PATCH with the patched object (200), an Event create with the event (201)
    wm.stubFor(patch(urlEqualTo(POD_STATUS)).willReturn(KubeReplies.json(200,
        KubeReplies.pod("ml", "p", pod.uid(), null))));
    wm.stubFor(post(urlEqualTo(EVENTS)).willReturn(KubeReplies.json(201, event())));
  }

  @AfterEach
  void stop() throws InterruptedException {
    writer.close();
  }

  private static String event() {
    return "{\"kind\":\"Event\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p.1\",\"namespace\":\"ml\","
        + "\"uid\":\"e1\",\"resourceVersion\":\"7\"},\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"ml\","
        + "\"name\":\"p\",\"apiVersion\":\"v1\"},\"reason\":\"FailedScheduling\",\"type\":\"Warning\",\"count\":1}";
  }

  private static String podGroup(String name) {
    return "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"ml\",\"uid\":\"pg-" + name + "\",\"resourceVersion\":\"9\",\"generation\":1},"
        + "\"spec\":{\"minMember\":2,\"queue\":\"team-a\"},\"status\":{\"phase\":\"Inqueue\",\"running\":1}}";
  }

  /** The Queue as the API server returns it after a status patch, with {@code allocated} (a JSON object). */
  private static String queueWith(String name, String allocated) {
    JsonObject q = KubeReplies.parse(queue(name));
    q.getAsJsonObject("status").add("allocated", KubeReplies.parse(allocated));
    return q.toString();
  }

  private static String queue(String name) {
    return "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"" + name
        + "\",\"uid\":\"q-" + name + "\",\"resourceVersion\":\"9\",\"generation\":1},\"spec\":{\"weight\":1},"
        + "\"status\":{\"state\":\"Open\"}}";
  }

  private static SessionResult pending(Pod p, String reason) {
    return new SessionResult(List.of(), List.of(), List.of(new SessionResult.PendingPod(p, reason, null, "default")),
        List.of(), List.of());
  }

  private static SessionResult jobs(SessionResult.JobStatus... jobs) {
    return new SessionResult(List.of(), List.of(), List.of(), List.of(jobs), List.of());
  }

  private static SessionResult.JobStatus job(String key, String phase, int running, JobCondition... conditions) {
    return new SessionResult.JobStatus(key, false, PodGroupPhase.of(phase), 2, running, List.of(conditions), null,
        null, running);
  }

  private static SessionResult queues(SessionResult.QueueStatus... queues) {
    return new SessionResult(List.of(), List.of(), List.of(), List.of(), List.of(queues));
  }

  private static SessionResult.QueueStatus queueStatus(String name, Map<String, String> allocated) {
    return new SessionResult.QueueStatus(name, 1, null, ResourceVector.parse(allocated), false, 1, 2, 3);
  }

  /** The sent PodScheduled condition without its lastTransitionTime, after checking that is an RFC 3339 time. */
  private static JsonObject conditionPatch(LoggedRequest r) {
    JsonObject body = KubeReplies.sent(r);
    JsonObject c = body.getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject();
    assertTrue(c.remove("lastTransitionTime").getAsString().matches(RFC3339), body.toString());
    return body;
  }

  private static JsonObject expectedCondition(String message) {
    return KubeReplies.parse("{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\","
        + "\"reason\":\"Unschedulable\",\"message\":" + new com.google.gson.JsonPrimitive(message) + "}]}}");
  }

  @Test
  void pendingPodGetsPodScheduledFalseByStrategicMergePatchThenAFailedSchedulingEvent() throws Exception {
    String reason = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";
    writer.update(pending(pod, reason));
    writer.close();

    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(POD_STATUS))
        .withHeader("Content-Type", matching(SMP)));
    assertEquals(1, patches.size(), "one strategic merge patch of pods/status");
    assertEquals(expectedCondition(reason), conditionPatch(patches.get(0)));

    List<LoggedRequest> events = wm.findAll(postRequestedFor(urlEqualTo(EVENTS))
        .withHeader("Content-Type", matching("application/json(;.*)?")));
    assertEquals(1, events.size());
    JsonObject e = KubeReplies.sent(events.get(0));
    assertEquals("FailedScheduling", e.get("reason").getAsString());
    assertEquals("Warning", e.get("type").getAsString());
    assertEquals(reason, e.get("message").getAsString());
    assertEquals(KubeReplies.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"ml\","
        + "\"uid\":\"ml-p-uid\"}"), e.getAsJsonObject("involvedObject"));
    assertEquals("basalt-scheduler", e.getAsJsonObject("source").get("component").getAsString());
    assertEquals("ml", e.getAsJsonObject("metadata").get("namespace").getAsString());

    List<LoggedRequest> all = wm.findAll(anyRequestedFor(anyUrl()));
    assertEquals(List.of("PATCH " + POD_STATUS, "POST " + EVENTS),
        all.stream().map(r -> r.getMethod() + " " + r.getUrl()).toList(), "condition first, then the event");
  }

  @Test
  void anIdenticalUpdateSendsNothingAndAChangedReasonWritesAgain() throws Exception {
    writer.update(pending(pod, "first"));
    assertTrue(writer.awaitWrites(WAIT));
    writer.update(pending(pod, "first"));
    assertTrue(writer.awaitWrites(WAIT));
    writer.update(pending(pod, "second"));
    writer.close();

    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(POD_STATUS)));
    assertEquals(2, patches.size(), "written at the first update and at the change, not at the repeat");
    assertEquals(expectedCondition("first"), conditionPatch(patches.get(0)));
    assertEquals(expectedCondition("second"), KubeReplies.sent(patches.get(1)),
        "still False, only the reason changed: no new lastTransitionTime");
    wm.verify(2, postRequestedFor(urlEqualTo(EVENTS)));
  }

  @Test
  void aFailedConditionPatchRecordsNoEventAndIsWrittenAgainAtTheNextUpdate() throws Exception {
    KubeReplies.inTurn(wm, () -> patch(urlEqualTo(POD_STATUS)),
        KubeReplies.json(500, KubeReplies.internalError("etcdserver: request timed out")),
        KubeReplies.json(200, KubeReplies.pod("ml", "p", pod.uid(), null)));
    writer.update(pending(pod, "no room"));
    assertTrue(writer.awaitWrites(WAIT), "the failed write has been handled");
    assertEquals(1, wm.findAll(patchRequestedFor(urlEqualTo(POD_STATUS))).size());

    writer.update(pending(pod, "no room"));
    writer.close();

    wm.verify(2, patchRequestedFor(urlEqualTo(POD_STATUS)));
    List<String> reasons = wm.findAll(postRequestedFor(urlEqualTo(EVENTS))).stream()
        .map(r -> KubeReplies.sent(r).get("reason").getAsString()).toList();
    assertEquals(List.of("FailedScheduling"), reasons, "no event for the failed write");
  }

  @Test
  void boundPodGetsAScheduledEvent() throws Exception {
    writer.bound(pod, "n1");
    writer.close();

    List<LoggedRequest> events = wm.findAll(postRequestedFor(urlEqualTo(EVENTS)));
    assertEquals(1, events.size());
    JsonObject e = KubeReplies.sent(events.get(0));
    assertEquals("Scheduled", e.get("reason").getAsString());
    assertEquals("Normal", e.get("type").getAsString());
    assertEquals("Successfully assigned ml/p to n1", e.get("message").getAsString());
    assertEquals("Pod", e.getAsJsonObject("involvedObject").get("kind").getAsString());
    assertEquals("ml-p-uid", e.getAsJsonObject("involvedObject").get("uid").getAsString());
    assertEquals(1, e.get("count").getAsInt());
    assertTrue(e.get("firstTimestamp").getAsString().matches(RFC3339), e.toString());
    assertTrue(e.getAsJsonObject("metadata").get("name").getAsString().startsWith("p."), e.toString());
    wm.verify(0, patchRequestedFor(anyUrl()));
  }

  @Test
  void podGroupStatusIsAMergePatchOfItsStatusSubresourceWrittenOnlyOnChange() throws Exception {
    wm.stubFor(patch(urlEqualTo(PG + "/status")).willReturn(KubeReplies.json(200, podGroup("g"))));
    JobCondition unschedulable = new JobCondition("Unschedulable", "True", "NotEnoughResources", "1/2 tasks fit");
    writer.update(jobs(job("ml/g", "Inqueue", 1, unschedulable),
        new SessionResult.JobStatus("ml/implicit", true, PodGroupPhase.RUNNING, 1, 1, List.of())));
    writer.update(jobs(job("ml/g", "Inqueue", 1, unschedulable)));
    writer.close();

    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(PG + "/status"))
        .withHeader("Content-Type", matching(MERGE)));
    assertEquals(1, patches.size(), "once; an implicit job (no PodGroup object) and a repeat send nothing");
    JsonObject sent = KubeReplies.sent(patches.get(0));
    JsonObject condition = sent.getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject();
    assertTrue(condition.remove("lastTransitionTime").getAsString().matches(RFC3339), sent.toString());
    assertEquals(KubeReplies.parse("{\"status\":{\"phase\":\"Inqueue\",\"running\":1,\"conditions\":[{\"type\":"
        + "\"Unschedulable\",\"status\":\"True\",\"reason\":\"NotEnoughResources\",\"message\":\"1/2 tasks fit\"}]}}"),
        sent);
    wm.verify(1, anyRequestedFor(anyUrl()));
  }

  @Test
  void podGroupWithoutAStatusSubresourceIsPatchedOnTheObjectAndTheSubresourceIsNotTriedAgain() throws Exception {
    // Volcano's CRD has no status subresource, and the CRD handler answers a subresource the CRD does not define
    // with NewNotFound(podgroups.scheduling.volcano.sh, name) (apiextensions-apiserver customresource_handler.go)
    wm.stubFor(patch(urlEqualTo(PG + "/status")).willReturn(KubeReplies.json(404,
        KubeReplies.notFound("scheduling.volcano.sh", "podgroups", "g"))));
    wm.stubFor(patch(urlEqualTo(PG)).willReturn(KubeReplies.json(200, podGroup("g"))));
    writer.update(jobs(job("ml/g", "Inqueue", 0)));
    assertTrue(writer.awaitWrites(WAIT));
    writer.update(jobs(job("ml/g", "Running", 2)));
    writer.close();

    wm.verify(1, patchRequestedFor(urlEqualTo(PG + "/status")));
    List<LoggedRequest> onObject = wm.findAll(patchRequestedFor(urlEqualTo(PG))
        .withHeader("Content-Type", matching(MERGE)));
    assertEquals(2, onObject.size());
    assertEquals(KubeReplies.parse("{\"status\":{\"phase\":\"Inqueue\",\"running\":0}}"),
        KubeReplies.sent(onObject.get(0)));
    assertEquals(KubeReplies.parse("{\"status\":{\"phase\":\"Running\",\"running\":2}}"),
        KubeReplies.sent(onObject.get(1)));
  }

  @Test
  void aDeletedPodGroupDoesNotSwitchOffTheStatusSubresource() throws Exception {
    String gone = "/apis/scheduling.volcano.sh/v1beta1/namespaces/ml/podgroups/gone";
    wm.stubFor(patch(urlEqualTo(gone + "/status")).willReturn(KubeReplies.json(404,
        KubeReplies.notFound("scheduling.volcano.sh", "podgroups", "gone"))));
    wm.stubFor(patch(urlEqualTo(gone)).willReturn(KubeReplies.json(404,
        KubeReplies.notFound("scheduling.volcano.sh", "podgroups", "gone"))));
    wm.stubFor(patch(urlEqualTo(PG + "/status")).willReturn(KubeReplies.json(200, podGroup("g"))));
    wm.stubFor(patch(urlEqualTo(PG)).willReturn(KubeReplies.json(200, podGroup("g"))));
    writer.update(jobs(job("ml/gone", "Inqueue", 0)));
    writer.update(jobs(job("ml/g", "Running", 2)));
    writer.close();

    wm.verify(1, patchRequestedFor(urlEqualTo(PG + "/status")));
  }

  @Test
  void aConditionsLastTransitionTimeChangesOnlyWhenItsStatusFlips() throws Exception {
    wm.stubFor(patch(urlEqualTo(PG + "/status")).willReturn(KubeReplies.json(200, podGroup("g"))));
    java.time.Instant t0 = java.time.Instant.parse("2026-11-27T10:00:00Z");
    writer.clock = java.time.Clock.fixed(t0, java.time.ZoneOffset.UTC);
    writer.update(jobs(job("ml/g", "Inqueue", 0, new JobCondition("Unschedulable", "True", "r", "0/2 fit"))));
    assertTrue(writer.awaitWrites(WAIT));
    writer.clock = java.time.Clock.fixed(t0.plusSeconds(60), java.time.ZoneOffset.UTC);
    writer.update(jobs(job("ml/g", "Inqueue", 0, new JobCondition("Unschedulable", "True", "r", "1/2 fit"))));
    assertTrue(writer.awaitWrites(WAIT));
    writer.clock = java.time.Clock.fixed(t0.plusSeconds(120), java.time.ZoneOffset.UTC);
    writer.update(jobs(job("ml/g", "Running", 2, new JobCondition("Unschedulable", "False", "r", ""))));
    writer.close();

    List<String> times = wm.findAll(patchRequestedFor(urlEqualTo(PG + "/status"))).stream()
        .map(r -> KubeReplies.sent(r).getAsJsonObject("status").getAsJsonArray("conditions").get(0)
            .getAsJsonObject().get("lastTransitionTime").getAsString()).toList();
    assertEquals(List.of("2026-11-27T10:00:00Z", "2026-11-27T10:00:00Z", "2026-11-27T10:02:00Z"), times,
        "a new message is no transition; True to False is");
  }

  @Test
  void aPodGroupFoundGoneIsNotWrittenAgainWhileItsPodsLinger() throws Exception {
    String gone = "/apis/scheduling.volcano.sh/v1beta1/namespaces/ml/podgroups/gone";
    wm.stubFor(patch(urlEqualTo(gone + "/status")).willReturn(KubeReplies.json(404,
        KubeReplies.notFound("scheduling.volcano.sh", "podgroups", "gone"))));
    wm.stubFor(patch(urlEqualTo(gone)).willReturn(KubeReplies.json(404,
        KubeReplies.notFound("scheduling.volcano.sh", "podgroups", "gone"))));
    writer.update(jobs(job("ml/gone", "Inqueue", 0)));
    assertTrue(writer.awaitWrites(WAIT));
    writer.update(jobs(job("ml/gone", "Pending", 0)));
    assertTrue(writer.awaitWrites(WAIT));
    writer.update(jobs(job("ml/gone", "Inqueue", 0)));
    writer.close();

    wm.verify(1, patchRequestedFor(urlEqualTo(gone + "/status")));
    wm.verify(1, patchRequestedFor(urlEqualTo(gone)));
  }

  @Test
  void noStatusGoesToAPodGroupTheCacheDoesNotHold() throws Exception {
    writer.podGroupObjects(key -> key.equals("ml/g") ? "object" : null);
    wm.stubFor(patch(urlEqualTo(PG + "/status")).willReturn(KubeReplies.json(200, podGroup("g"))));
    writer.update(jobs(job("ml/g", "Inqueue", 0), job("ml/deleted-job", "Pending", 0)));
    writer.close();

    wm.verify(1, patchRequestedFor(urlEqualTo(PG + "/status")));
    wm.verify(1, anyRequestedFor(anyUrl()));
  }

  @Test
  void queueStatusIsAMergePatchOfItsStatusSubresourceWrittenOnlyOnChange() throws Exception {
    wm.stubFor(patch(urlEqualTo(QUEUE_STATUS)).willReturn(KubeReplies.json(200, queue("team-a"))));
    Map<String, String> allocated = Map.of("cpu", "2", "nvidia.com/gpu", "4");
    writer.update(queues(queueStatus("team-a", allocated)));
    writer.update(queues(queueStatus("team-a", allocated)));
    writer.close();

    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(QUEUE_STATUS))
        .withHeader("Content-Type", matching(MERGE)));
    assertEquals(1, patches.size());
    JsonObject sent = KubeReplies.sent(patches.get(0));
    JsonObject allocatedSent = sent.getAsJsonObject("status").getAsJsonObject("allocated");
    // Every other resource the cluster knows is sent as null, so a stale one written by an earlier leader goes.
    for (String name : List.copyOf(allocatedSent.keySet())) {
      if (allocatedSent.get(name).isJsonNull()) {
        assertTrue(!allocated.containsKey(name), name);
        allocatedSent.remove(name);
      }
    }
    assertTrue(!sent.getAsJsonObject("status").getAsJsonObject("allocated").has("memory")
        || !allocatedSent.has("memory"), "memory is not allocated here");
    assertEquals(KubeReplies.parse("{\"status\":{\"allocated\":{\"cpu\":\"2\",\"nvidia.com/gpu\":\"4\"},"
        + "\"pending\":1,\"inqueue\":2,\"running\":3}}"), sent);
    wm.verify(1, anyRequestedFor(anyUrl()));
  }

  @Test
  void aResourceAnEarlierLeaderWroteIsRemovedToo() throws Exception {
    // The Queue still shows 8 GPUs from a leader before this one; this process has never written nvidia.com/gpu.
    KubeReplies.inTurn(wm, () -> patch(urlEqualTo(QUEUE_STATUS)),
        KubeReplies.json(200, queueWith("team-a", "{\"cpu\":\"2\",\"nvidia.com/gpu\":\"8\"}")),
        KubeReplies.json(200, queueWith("team-a", "{\"cpu\":\"2\"}")));
    JsonObject stored = KubeReplies.parse(queueWith("team-a", "{\"cpu\":\"8\",\"nvidia.com/gpu\":\"8\"}"));
    writer.update(queues(queueStatus("team-a", Map.of("cpu", "2"))));
    writer.close();

    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(QUEUE_STATUS)));
    assertEquals(2, patches.size(), "the write, then the stale resource the reply still showed, nulled at once");
    for (LoggedRequest r : patches) {
      KubeReplies.mergePatch(stored, KubeReplies.sent(r));
    }
    assertEquals(KubeReplies.parse("{\"cpu\":\"2\"}"), stored.getAsJsonObject("status").getAsJsonObject("allocated"));
  }

  @Test
  void aQueueWithoutObjectIsNotWrittenAgainButAFailedQueueWriteIs() throws Exception {
    String defaultQueue = "/apis/scheduling.volcano.sh/v1beta1/queues/default/status";
    wm.stubFor(patch(urlEqualTo(defaultQueue)).willReturn(KubeReplies.json(404,
        KubeReplies.notFound("scheduling.volcano.sh", "queues", "default"))));
    KubeReplies.inTurn(wm, () -> patch(urlEqualTo(QUEUE_STATUS)),
        KubeReplies.json(500, KubeReplies.internalError("etcdserver: request timed out")),
        KubeReplies.json(200, queue("team-a")));
    SessionResult both = queues(queueStatus("default", Map.of("cpu", "1")), queueStatus("team-a", Map.of("cpu", "2")));
    writer.update(both);
    assertTrue(writer.awaitWrites(WAIT), "the first writes handled");
    writer.update(both);
    writer.close();

    wm.verify(1, patchRequestedFor(urlEqualTo(defaultQueue))); // the implicit default queue: 404 is final
    wm.verify(2, patchRequestedFor(urlEqualTo(QUEUE_STATUS)));
  }

  @Test
  void aResourceNoLongerAllocatedIsRemovedFromTheQueueStatus() throws Exception {
    KubeReplies.inTurn(wm, () -> patch(urlEqualTo(QUEUE_STATUS)),
        KubeReplies.json(200, queueWith("team-a", "{\"cpu\":\"2\",\"nvidia.com/gpu\":\"4\"}")),
        KubeReplies.json(200, queueWith("team-a", "{\"cpu\":\"2\"}")));
    writer.update(queues(queueStatus("team-a", Map.of("cpu", "2", "nvidia.com/gpu", "4"))));
    assertTrue(writer.awaitWrites(WAIT));
    writer.update(queues(queueStatus("team-a", Map.of("cpu", "2"))));
    writer.close();

    JsonObject stored = KubeReplies.parse(queue("team-a"));
    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(QUEUE_STATUS))
        .withHeader("Content-Type", matching(MERGE)));
    assertEquals(2, patches.size());
    for (LoggedRequest r : patches) {
      KubeReplies.mergePatch(stored, KubeReplies.parse(r.getBodyAsString()));
    }
    assertEquals(KubeReplies.parse("{\"cpu\":\"2\"}"), stored.getAsJsonObject("status").getAsJsonObject("allocated"),
        "what the API server stores after applying both merge patches");
  }

  @Test
  void updatesFasterThanTheApiServerAreCoalescedToTheNewestPerObject() throws Exception {
    writer.update(pending(pod, "first"));
    writer.update(pending(pod, "second"));
    writer.update(pending(pod, "third"));
    writer.close();

    List<LoggedRequest> patches = wm.findAll(patchRequestedFor(urlEqualTo(POD_STATUS)));
    assertTrue(patches.size() <= 3 && !patches.isEmpty(), patches.size() + " writes");
    conditionPatch(patches.get(0)); // the first write sets the transition time, whichever reason it carries
    JsonObject last = KubeReplies.sent(patches.get(patches.size() - 1));
    last.getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject().remove("lastTransitionTime");
    assertEquals(expectedCondition("third"), last, "the last write is the newest reason");
  }
}
