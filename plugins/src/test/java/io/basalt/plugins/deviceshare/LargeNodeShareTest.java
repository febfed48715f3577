package io.basalt.plugins.deviceshare;

import static io.basalt.plugins.deviceshare.ShareCluster.REGISTRY;
import static io.basalt.plugins.deviceshare.ShareCluster.conf;
import static io.basalt.plugins.deviceshare.ShareCluster.metaxNode;
import static io.basalt.plugins.deviceshare.ShareCluster.schedule;
import static io.basalt.plugins.deviceshare.ShareCluster.sharePod;
import static io.basalt.plugins.deviceshare.ShareCluster.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.session.Session;
import io.basalt.testing.TestSessions;
import org.junit.jupiter.api.Test;

/** Shares on a 128-GPU MetaX node: a device above index 63 is shared, and counted, like any other. */
class LargeNodeShareTest {
  @Test
  void sharesGoToDevice100WhenEveryOtherDeviceIsTooFull() {
    TestSessions c = TestSessions.cluster().node(metaxNode("mx", 128, 1024).cpu("1000").resource("pods", "1000")
        .build());
    for (int d = 0; d < 128; d++) {
      if (d != 100) {
        c.pod(sharePod("ns/held-" + d, 80, 8).onNode("mx").annotation(GpuAnnotations.DEVICES, "" + d).build());
      }
    }
    Session s = schedule(c.pod(sharePod("ns/a", 30, 4).build())
        .pod(sharePod("ns/b", 30, 4).build())
        .pod(sharePod("ns/c", 50, 4).build())
        .open(REGISTRY, conf("")));
    assertEquals("mx:100", where(s, "ns/a"));
    assertEquals("mx:100", where(s, "ns/b"), "binpack: onto the device a already shares");
    assertEquals(DeviceClaim.share(100, 30, 4096), TestSessions.task(s, "ns/b").deviceClaim());
    assertNull(TestSessions.task(s, "ns/c").nodeName(), "60 used on 100: no device has 50% left");
    DeviceUsage u = s.node("mx").deviceUsage();
    assertEquals(2, u.shares(100));
    assertEquals(60, u.coresUsed(100));
    assertEquals(1, u.shares(127));
    assertEquals(80, u.coresUsed(127));
  }
}
