package io.basalt.plugins.deviceshare;

import static io.basalt.plugins.deviceshare.ShareCluster.REGISTRY;
import static io.basalt.plugins.deviceshare.ShareCluster.conf;
import static io.basalt.plugins.deviceshare.ShareCluster.metaxNode;
import static io.basalt.plugins.deviceshare.ShareCluster.sharePod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.Arguments;
import io.basalt.gpu.DeviceClaim;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Arguments and the requests that can never be a share, with the words a user sees. */
class ShareRulesTest {
  private static List<String> problems(Map<String, Object> values) {
    Arguments args = new Arguments(values, "tiers[0].plugins[0] (deviceshare)");
    DeviceSharePlugin.descriptor().read().apply(args);
    assertTrue(args.unread().isEmpty(), args.unread().toString());
    return args.problems();
  }

  @Test
  void argumentsAreCheckedAndNamed() {
    assertEquals(List.of(), problems(Map.of("deviceshare.policy", "Spread", "deviceshare.maxShares", "4",
        "deviceshare.weight", 2, "deviceshare.sgpu", "example.com/sgpu")));
    assertEquals(List.of("tiers[0].plugins[0] (deviceshare): argument 'deviceshare.policy' must be binpack or "
        + "spread, got 'tightest'"), problems(Map.of("deviceshare.policy", "tightest")));
    assertEquals(List.of("tiers[0].plugins[0] (deviceshare): argument 'deviceshare.maxShares' must be at least 1 "
        + "(or 0 for the node's own count), got -1"), problems(Map.of("deviceshare.maxShares", -1)));
    assertEquals(List.of("tiers[0].plugins[0] (deviceshare): argument 'deviceshare.vcore' must name a resource, "
        + "got ''"), problems(Map.of("deviceshare.vcore", " ")));
  }

  @Test
  void requestsThatCannotBeOneShareAreRejectedEverywhere() {
    Session s = TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(TestPods.pod("ns/two-sgpu").resource("metax-tech.com/sgpu", "2")
            .resource("metax-tech.com/vcore", "30").build())
        .pod(sharePod("ns/too-much", 150, 4).build())
        .pod(sharePod("ns/mixed", 30, 4).resource("nvidia.com/gpucores", "30").build())
        .open(REGISTRY, conf(""));
    assertEquals("GPU share pod requests 2 metax-tech.com/sgpu; a share is of one GPU, so it must be 1",
        reason(s, "ns/two-sgpu"));
    assertEquals("GPU share pod requests 150% compute (metax-tech.com/vcore); one GPU has 100",
        reason(s, "ns/too-much"));
    assertEquals("GPU share pod mixes MetaX (metax-tech.com/sgpu, metax-tech.com/vcore, metax-tech.com/vmemory) and "
        + "NVIDIA (nvidia.com/gpucores, nvidia.com/gpumem) share resources", reason(s, "ns/mixed"));
  }

  @Test
  void renamedResourcesAreWhatCounts() {
    Session s = TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(TestPods.pod("ns/custom").resource("example.com/cores", "70").build())
        .pod(TestPods.pod("ns/default-name").resource("nvidia.com/gpucores", "30").build())
        .open(REGISTRY, conf("deviceshare.gpucores: example.com/cores"));
    // It names no memory, so it holds the 64 GiB device's whole memory, as HAMi counts it.
    assertEquals(DeviceClaim.share(0, 70, 65536),
        s.callbacks().chooseDevices(TestSessions.task(s, "ns/custom"), s.node("mx")));
    assertNull(s.callbacks().chooseDevices(TestSessions.task(s, "ns/default-name"), s.node("mx")));
    assertTrue(s.deviceManagedResources()[ResourceNames.indexIfKnown("example.com/cores")],
        "left out of the node-level fit");
  }

  @Test
  void describeNamesOnlyWhatThePodAsksFor() {
    assertEquals("30% compute and 4Gi memory", new ShareRequest("s", "d", 30, 4096, null).describe());
    assertEquals("1536Mi memory", new ShareRequest("s", "d", 0, 1536, null).describe());
    assertEquals("30% compute and all its memory", new ShareRequest("s", "d", 30, 0, null).describe());
    assertEquals("all its memory", new ShareRequest("s", "d", 0, 0, null).describe());
  }

  private static String reason(Session s, String pod) {
    return s.callbacks().filter(TestSessions.task(s, pod), s.node("mx")).reason();
  }
}
