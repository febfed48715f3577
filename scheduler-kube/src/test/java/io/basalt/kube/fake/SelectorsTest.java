package io.basalt.kube.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

/** Label and field selector parsing and matching. */
class SelectorsTest {
  private static final JsonObject POD = Json.parseObject("{\"metadata\":{\"name\":\"p1\",\"namespace\":\"ml\","
      + "\"labels\":{\"app\":\"train\",\"volcano.sh/job-name\":\"j1\",\"rank\":\"3\"}},"
      + "\"spec\":{\"schedulerName\":\"basalt\"},\"status\":{\"phase\":\"Pending\"}}");

  private static boolean labels(String selector) {
    return Selectors.labels(selector).test(POD);
  }

  private static boolean fields(String selector) {
    return Selectors.fields(selector, Resources.PODS).test(POD);
  }

  @Test
  void labelSelectors() {
    assertTrue(labels(""));
    assertTrue(labels("app=train"));
    assertTrue(labels("app==train,volcano.sh/job-name=j1"));
    assertFalse(labels("app!=train"));
    assertTrue(labels("app in (train, serve)"));
    assertFalse(labels("app notin (train)"));
    assertTrue(labels("tier notin (gold)"));
    assertTrue(labels("volcano.sh/job-name"));
    assertTrue(labels("!tier"));
    assertFalse(labels("!app"));
    assertTrue(labels("rank>2,rank<4"));
    assertFalse(labels("rank>3"));
    assertEquals(400, assertThrows(ApiError.class, () -> labels("app in ()")).code());
    assertEquals(400, assertThrows(ApiError.class, () -> labels("a b c")).code());
  }

  @Test
  void fieldSelectors() {
    assertTrue(fields("spec.nodeName="));
    assertTrue(fields("spec.nodeName=="));
    assertFalse(fields("spec.nodeName!="));
    assertTrue(fields("spec.schedulerName=basalt,status.phase=Pending"));
    assertTrue(fields("metadata.name=p1,metadata.namespace=ml"));
    assertFalse(fields("metadata.name!=p1"));
    assertTrue(fields("spec.hostNetwork=false"));
    assertEquals("field label not supported: spec.containers",
        assertThrows(ApiError.class, () -> fields("spec.containers=x")).getMessage());
    assertTrue(Selectors.fields("metadata.name=a\\,b", Resources.CONFIGMAPS)
        .test(Json.parseObject("{\"metadata\":{\"name\":\"a,b\"}}")));
  }

  /** A stored object's selectable part answers every selector as the whole object does (a LIST tests only that). */
  @Test
  void theSelectablePartAnswersAsTheWholeObject() {
    JsonObject pod = POD.deepCopy();
    pod.getAsJsonObject("spec").addProperty("nodeName", "n1");
    pod.getAsJsonObject("spec").add("containers", Json.parseObject("{\"a\":[{\"name\":\"c\"}]}").get("a"));
    JsonObject part = Selectors.selectable(pod, Resources.PODS);
    assertFalse(part.toString().contains("containers"), part.toString());
    for (String f : java.util.List.of("spec.nodeName=n1", "spec.nodeName=",
        "status.phase!=Succeeded,status.phase!=Failed", "spec.schedulerName=basalt", "metadata.name=p1", "metadata.namespace=ml", "spec.hostNetwork=false",
        "status.phase=Running", "spec.restartPolicy=Always")) {
      assertEquals(Selectors.fields(f, Resources.PODS).test(pod), Selectors.fields(f, Resources.PODS).test(part), f);
    }
    for (String l : java.util.List.of("app=train", "!tier", "rank>2", "app notin (train)")) {
      assertEquals(Selectors.labels(l).test(pod), Selectors.labels(l).test(part), l);
    }
    JsonObject event = Json.parseObject("{\"metadata\":{\"name\":\"e\"},\"source\":{\"component\":\"basalt\"},"
        + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p1\"},\"reason\":\"Scheduled\",\"message\":\"long\"}");
    JsonObject eventPart = Selectors.selectable(event, Resources.EVENTS);
    for (String f : java.util.List.of("source=basalt", "involvedObject.name=p1", "reason=Scheduled", "source=other")) {
      assertEquals(Selectors.fields(f, Resources.EVENTS).test(event), Selectors.fields(f, Resources.EVENTS)
          .test(eventPart), f);
    }
  }
}
