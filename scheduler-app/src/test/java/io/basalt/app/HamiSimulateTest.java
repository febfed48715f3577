package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code basalt simulate --output json} prints every annotation a binding would write, HAMi's included. */
class HamiSimulateTest {
  private static final String CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: nodeorder}, {name: deviceshare}, {name: gpu-aware}]
      """;

  private static JsonObject annotations(CliRun run, String pod) {
    for (var b : JsonParser.parseString(run.out()).getAsJsonObject().getAsJsonArray("bindings")) {
      if (b.getAsJsonObject().get("pod").getAsString().equals(pod)) {
        return b.getAsJsonObject().getAsJsonObject("annotations");
      }
    }
    throw new AssertionError(pod + " not bound: " + run.out());
  }

  @Test
  void eachBindingListsTheAnnotationsItWouldWrite(@TempDir Path dir) throws Exception {
    Path conf = Files.writeString(dir.resolve("c.conf"), CONF);
    CliRun run = basalt("simulate", "--cluster", Scenarios.fixture("hami").toString(), "--config",
        conf.toString(), "--scheduler-name", "hami-scheduler", "--output", "json");
    assertEquals(0, run.exit(), run.err());
    JsonObject train = annotations(run, "ml/train");
    assertEquals("GPU-h1,NVIDIA,81920,0:GPU-h2,NVIDIA,81920,0:;",
        train.get("hami.io/vgpu-devices-to-allocate").getAsString(), "GPU-h0 is the old pod's");
    assertEquals("h100-0", train.get("hami.io/vgpu-node").getAsString());
    assertEquals("allocating", train.get("hami.io/bind-phase").getAsString());
    assertEquals("0", train.get("hami.io/bind-time").getAsString(), "simulate stamps the epoch: the same input, the same output");
    assertEquals("1,2", train.get("basalt.io/gpu-devices").getAsString());
    assertEquals("GPU-h3,NVIDIA,4096,30:;", annotations(run, "ml/infer").get("hami.io/vgpu-devices-allocated")
        .getAsString());

    CliRun plain = basalt("simulate", "--cluster", Scenarios.fixture("hami").toString(), "--config",
        conf.toString(), "--scheduler-name", "hami-scheduler", "--output", "json", "--device-protocol", "basalt");
    assertEquals(0, plain.exit(), plain.err());
    assertFalse(annotations(plain, "ml/train").has("hami.io/vgpu-node"));
    assertEquals(2, basalt("simulate", "--device-protocol", "volcano").exit());
  }
}
