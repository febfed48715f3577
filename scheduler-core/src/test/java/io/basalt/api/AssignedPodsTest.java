package io.basalt.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.model.LabelSelector;
import io.basalt.model.Pod;
import io.basalt.testing.TestPods;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssignedPodsTest {
  private final Pod web1 = TestPods.pod("ns/web-1").label("app", "web").label("tier", "front").onNode("n1").build();
  private final Pod web2 = TestPods.pod("ns/web-2").label("app", "web").onNode("n2").build();
  private final Pod db = TestPods.pod("ns/db").label("app", "db").label("tier", "back").onNode("n2").build();
  private final AssignedPods pods = new AssignedPods(Map.of("n1", 0, "n2", 1),
      List.of(List.of(web1), List.of(web2, db)), List.of());

  @Test
  void podsOnANodeByName() {
    assertEquals(List.of(web2, db), pods.on("n2"));
    assertEquals(List.of(), pods.on("n9"));
  }

  @Test
  void candidatesAreThoseCarryingTheRarestRequiredLabel() {
    LabelSelector webFront = new LabelSelector(Map.of("app", "web", "tier", "front"), List.of());
    assertEquals(List.of(web1), pods.candidates(webFront));
    LabelSelector inDb = new LabelSelector(Map.of(),
        List.of(new LabelSelector.Requirement("app", "In", List.of("db"))));
    assertEquals(List.of(db), pods.candidates(inDb));
    assertEquals(List.of(), pods.candidates(new LabelSelector(Map.of("app", "cache"), List.of())));
    assertEquals(List.of(), pods.candidates(null), "an absent selector matches nothing");
  }

  @Test
  void selectorsRequiringNoValueNarrowNothing() {
    assertNull(pods.candidates(LabelSelector.EVERYTHING));
    assertNull(pods.candidates(new LabelSelector(Map.of(),
        List.of(new LabelSelector.Requirement("app", "In", List.of("web", "db"))))));
    assertNull(pods.candidates(new LabelSelector(Map.of(),
        List.of(new LabelSelector.Requirement("tier", "Exists", List.of())))));
  }
}
