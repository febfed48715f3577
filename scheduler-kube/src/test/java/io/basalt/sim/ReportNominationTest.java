package io.basalt.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code simulate --output json} shows a pending pod's nominated node, and nothing for a pod without one. */
class ReportNominationTest {
  @Test
  void aNominatedPendingPodShowsItsNode() {
    SimulationReport r = new SimulationReport(List.of(), List.of(
        new SimulationReport.Pending("ml/next", "pipelined to node gpu-a", null, "gpu-a"),
        new SimulationReport.Pending("ml/other", "0/1 nodes are available", null, null)),
        List.of(), List.of(), List.of(), List.of(), 1, 1);
    JsonArray pending = JsonParser.parseString(ReportFormat.json(r)).getAsJsonObject().getAsJsonArray("pending");
    assertEquals("gpu-a", pending.get(0).getAsJsonObject().get("nominatedNodeName").getAsString());
    assertFalse(pending.get(1).getAsJsonObject().has("nominatedNodeName"));
  }
}
