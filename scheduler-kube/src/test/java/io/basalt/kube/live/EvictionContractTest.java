package io.basalt.kube.live;

import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.basalt.cache.ClusterCache;
import io.basalt.model.Pod;
import io.basalt.scheduler.Assumptions;
import io.basalt.session.SessionResult.Eviction;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP contract of {@link KubeBinder}'s evictions: {@code POST pods/{name}/eviction} with a policy/v1 Eviction
 * carrying the pod's uid as a precondition; 201 Status done, 404 done (already gone), 429 from a
 * PodDisruptionBudget retried, other refusals final and rolled back.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class EvictionContractTest {
  @RegisterExtension
  static WireMockExtension wm = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort())
      .failOnUnmatchedRequests(true).build();

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String EVICT = "/api/v1/namespaces/ml/pods/v1/eviction";

  private ClusterCache cache;
  private KubeBinder binder;
  private Pod victim;

  @BeforeEach
  void start() {
    cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
    binder = new KubeBinder(KubeReplies.client(wm), KubeBinder.Options.defaults()
        .withRetries(3, Duration.ofMillis(10), Duration.ofMillis(40)));
    victim = TestPods.pod("ml/v1").gpu(1).onNode("n1").build();
    cache.putPod(victim);
  }

  @AfterEach
  void stop() throws InterruptedException {
    binder.close();
  }

  private void evict() throws InterruptedException {
    new Assumptions(cache).evict(binder, List.of(new Eviction(victim, "preempted")));
    assertTrue(cache.pod(victim.uid()).terminating(), "assumed terminating at once");
    assertTrue(binder.awaitIdle(WAIT), "binder idle");
  }

  @Test
  void postsAPolicyV1EvictionWithTheUidPreconditionAndCountsThe201StatusAsDone() throws Exception {
    wm.stubFor(post(EVICT).willReturn(KubeReplies.json(201, KubeReplies.createdStatus())));

    evict();

    List<LoggedRequest> posts = wm.findAll(postRequestedFor(urlEqualTo(EVICT))
        .withHeader("Content-Type", matching("application/json(;.*)?"))
        .withHeader("Accept", equalTo("application/json")));
    assertEquals(1, posts.size());
    assertEquals(KubeReplies.parse("{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"v1\","
        + "\"namespace\":\"ml\"},\"deleteOptions\":{\"preconditions\":{\"uid\":\"ml-v1-uid\"}}}"),
        KubeReplies.sent(posts.get(0)), "the uid precondition keeps a re-created pod of that name safe");
    wm.verify(1, anyRequestedFor(anyUrl()));
    assertEquals(1, binder.counters().evictionsOk());
    assertEquals(0, binder.counters().evictionsFailed());
    assertTrue(cache.pod(victim.uid()).terminating(), "stays terminating until the informer reports it gone");
  }

  @Test
  void blockedByADisruptionBudgetIsRetriedUntilAllowed() throws Exception {
    KubeReplies.inTurn(wm, () -> post(EVICT),
        KubeReplies.json(429, KubeReplies.disruptionBudget("ml/train-pdb", 2, 2)),
        KubeReplies.json(429, KubeReplies.disruptionBudget("ml/train-pdb", 2, 2)),
        KubeReplies.json(201, KubeReplies.createdStatus()));

    evict();

    wm.verify(3, postRequestedFor(urlEqualTo(EVICT)));
    assertEquals(1, binder.counters().evictionsOk());
    assertEquals(2, binder.counters().retries());
  }

  @Test
  void aBudgetThatNeverAllowsItGivesUpAtMaxAttemptsAndRollsBack() throws Exception {
    wm.stubFor(post(EVICT).willReturn(KubeReplies.json(429, KubeReplies.disruptionBudget("ml/train-pdb", 2, 2))));

    evict();

    wm.verify(3, postRequestedFor(urlEqualTo(EVICT)));
    assertEquals(1, binder.counters().evictionsFailed());
    assertFalse(cache.pod(victim.uid()).terminating(), "running again for the next cycle");
  }

  @Test
  void podAlreadyGoneIsDoneWithoutRetry() throws Exception {
    wm.stubFor(post(EVICT).willReturn(KubeReplies.json(404, KubeReplies.notFound("", "pods", "v1"))));

    evict();

    wm.verify(1, postRequestedFor(urlEqualTo(EVICT)));
    assertEquals(1, binder.counters().evictionsOk());
    assertEquals(0, binder.counters().evictionsFailed());
    assertEquals(0, binder.counters().retries());
  }

  @Test
  void aRefusalThatCannotSucceedIsFinalAndRollsBack() throws Exception {
    // errors.NewForbidden(GroupResource, name, err): what RBAC answers without create on pods/eviction
    wm.stubFor(post(EVICT).willReturn(KubeReplies.json(403, KubeReplies.failure(403, "Forbidden",
        "pods \"v1\" is forbidden: User \"system:serviceaccount:kube-system:basalt\" cannot create resource "
            + "\"pods/eviction\" in API group \"\" in the namespace \"ml\"",
        KubeReplies.details("v1", "", "pods")))));

    evict();

    wm.verify(1, postRequestedFor(urlEqualTo(EVICT)));
    assertEquals(1, binder.counters().evictionsFailed());
    assertFalse(cache.pod(victim.uid()).terminating(), "running again for the next cycle");
  }
}
