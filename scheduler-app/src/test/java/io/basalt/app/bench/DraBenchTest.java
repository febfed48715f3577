package io.basalt.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.dra.ResourceClaim;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code bench --dra}'s workload: the GPU capacity split between DRA nodes and device-plugin nodes, pods with claims
 * bound only where devices are, each claim allocated with as many devices as its pod asked, no device given twice.
 */
class DraBenchTest {
  @Test
  void podsWithClaimsBindOnDraNodesWithTheirDevicesAllocated() throws Exception {
    SchedulerProfile profile = ConfValidator.validate(ConfLoader.parse(BenchCommand.DEFAULT_CONF, "test"),
        PluginRegistry.load(), ActionRegistry.builtin()).profileOrThrow("test: ");
    Workload w = DraBench.withClaims(new WorkloadGenerator(40, 3, 80).generate(), 50, 3);
    assertEquals(20, w.nodes().stream().filter(n -> n.labels().containsKey(DraBench.DEVICES)).count());
    assertTrue(DraBench.claimPods(w) > 10, "claim pods: " + DraBench.claimPods(w));
    BenchRun run = new BenchRun(profile, w, 50);
    run.run();
    Map<String, Node> nodes = new HashMap<>();
    w.nodes().forEach(n -> nodes.put(n.name(), n));
    Set<String> devices = new HashSet<>();
    int bound = 0;
    for (Pod p : run.cache().pods()) {
      if (!p.isAssigned() || !p.constraints().hasResourceClaims()) {
        continue;
      }
      bound++;
      assertTrue(nodes.get(p.nodeName()).labels().containsKey(DraBench.DEVICES), p.key() + " on " + p.nodeName());
      ResourceClaim c = run.cache().resourceClaim(p.namespace() + "/"
          + p.constraints().resourceClaims().get(0).claimName());
      assertNotNull(c.allocation(), p.key());
      assertEquals(p.nodeName(), c.allocation().nodeName());
      assertEquals(Long.parseLong(p.annotations().get(DraBench.DEVICES)), c.allocation().devices().size());
      c.allocation().devices().forEach(d -> assertTrue(devices.add(d.device().toString()), "twice: " + d));
    }
    assertTrue(bound > 10, "pods with claims bound: " + bound);
  }
}
