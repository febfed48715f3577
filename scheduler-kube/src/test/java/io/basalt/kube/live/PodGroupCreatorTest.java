package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.api.PodGroupPhase;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.model.OwnerReference;
import io.basalt.model.PodGroup;
import io.basalt.model.ResourceVector;
import io.basalt.session.SessionResult;
import io.basalt.testing.Await;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What {@link PodGroupCreator} writes, and how often it tries: once, again only after a transient failure. */
@Timeout(30)
class PodGroupCreatorTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private final Map<String, PodGroup> groups = new HashMap<>();

  private static PodGroup inferred(String name, String from, OwnerReference owner) {
    return new PodGroup("ml", name, 2, Map.of(), "team-a", "high",
        ResourceVector.parse(Map.of("nvidia.com/gpu", "16")), "Pending", null, from, owner);
  }

  private static SessionResult result(PodGroup... pgs) {
    List<SessionResult.JobStatus> jobs = java.util.Arrays.stream(pgs).map(pg -> new SessionResult.JobStatus(
        pg.key(), false, PodGroupPhase.PENDING, pg.minMember(), 0, List.of(), pg.inferredFrom(), null)).toList();
    return new SessionResult(List.of(), List.of(), List.of(), jobs, List.of());
  }

  @Test
  void writesTheSpecAndOwnerOnceAndSkipsCoschedulingGroups() throws Exception {
    try (FakeApiServer server = FakeApiServer.start(); PodGroupCreator creator = new PodGroupCreator(
        server.apiClient(), groups::get)) {
      PodGroup job = inferred("podgroup-u1", "Job ml/train", new OwnerReference("batch/v1", "Job", "train", "u1"));
      PodGroup cosched = inferred("cg", "coscheduling PodGroup ml/cg", null);
      groups.put(job.key(), job);
      groups.put(cosched.key(), cosched);
      creator.update(result(job, cosched));
      creator.update(result(job, cosched));
      Await.until("created", WAIT, () -> server.get(Resources.PODGROUPS, "ml", "podgroup-u1") != null);
      JsonObject spec = server.get(Resources.PODGROUPS, "ml", "podgroup-u1").getAsJsonObject("spec");
      assertEquals(2, spec.get("minMember").getAsInt());
      assertEquals("team-a", spec.get("queue").getAsString());
      assertEquals("high", spec.get("priorityClassName").getAsString());
      assertEquals("16", spec.getAsJsonObject("minResources").get("nvidia.com/gpu").getAsString());
      creator.close();
      assertEquals(1, server.requests("POST", ".*/podgroups").size(), "once, and none for the coscheduling group");
    }
  }

  @Test
  void aTransientFailureIsTriedAgainAtALaterCycleAForbiddenOneIsNot() throws Exception {
    try (FakeApiServer server = FakeApiServer.start(); PodGroupCreator creator = new PodGroupCreator(
        server.apiClient(), groups::get)) {
      PodGroup a = inferred("a", "Kueue pod group ml/a", null);
      PodGroup b = inferred("b", "Kueue pod group ml/b", null);
      groups.put(a.key(), a);
      groups.put(b.key(), b);
      server.faults().failNext(1, 503, "POST", ".*/podgroups/?").failNext(1, 403, "POST", ".*/podgroups/?");
      creator.update(result(a));
      Await.until("a failed", WAIT, () -> server.requests("POST", ".*/podgroups").size() == 1);
      creator.update(result(b));
      Await.until("b failed", WAIT, () -> server.requests("POST", ".*/podgroups").size() == 2);
      Thread.sleep(100);
      creator.update(result(a, b));
      Await.until("a created on retry", WAIT, () -> server.get(Resources.PODGROUPS, "ml", "a") != null);
      creator.close();
      assertEquals(3, server.requests("POST", ".*/podgroups").size(), "b (403) not tried again");
      assertFalse(server.list(Resources.PODGROUPS, "ml").stream()
          .anyMatch(o -> o.getAsJsonObject("metadata").get("name").getAsString().equals("b")));
      assertTrue(server.get(Resources.PODGROUPS, "ml", "a").getAsJsonObject("metadata").get("ownerReferences") == null);
      assertNotNull(a.inferredFrom());
    }
  }
}
