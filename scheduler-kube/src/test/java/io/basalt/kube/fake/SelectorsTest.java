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
}
