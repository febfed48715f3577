package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.model.Pod;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the cache makes of {@code status.nominatedNodeName} as the API reports it. */
class NominationsTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");

  @Test
  void ourPodReportedNominatedIsHeldThereAsAfterARestart() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    Pod p = TestPods.pod("ns/p").cpu("1").build();
    cache.putPod(p.withNominatedNodeName("n1"));
    assertEquals(Map.of(p.uid(), "n1"), cache.snapshot().nominations());
    cache.putPod(p.withNominatedNodeName("n2"));
    assertEquals(Map.of(p.uid(), "n2"), cache.snapshot().nominations(), "the API's new word is taken");
  }

  @Test
  void aLapsedHoldIsNotBroughtBackByTheSameValueReportedAgain() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.nominationTtl(2);
    Pod p = TestPods.pod("ns/p").cpu("1").build().withNominatedNodeName("n1");
    cache.putPod(p);
    for (int i = 0; i < 3; i++) {
      cache.snapshot();
    }
    assertEquals(Map.of(), cache.snapshot().nominations(), "lapsed");
    cache.putPod(p.withAnnotations(Map.of("x", "y"))); // any later report, still naming n1 until the clear lands
    assertEquals(Map.of(), cache.snapshot().nominations());
    cache.putPod(p.withNominatedNodeName(null));
    cache.putPod(p);
    assertEquals(Map.of(p.uid(), "n1"), cache.snapshot().nominations(), "nominated again: a new hold");
  }

  @Test
  void aReportOfOurOwnWriteKeepsTheHoldsAge() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.nominationTtl(3);
    Pod p = TestPods.pod("ns/p").cpu("1").build();
    cache.putPod(p);
    cache.nominate(p.uid(), "n1");
    cache.snapshot();
    cache.snapshot();
    cache.putPod(p.withNominatedNodeName("n1")); // the informer shows what the status writer wrote
    cache.snapshot();
    cache.snapshot();
    assertEquals(Map.of(), cache.snapshot().nominations(), "aged from the nomination, not from the report");
  }

  @Test
  void aReportWithoutANominationLeavesOurHold() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    Pod p = TestPods.pod("ns/p").cpu("1").build();
    cache.putPod(p);
    cache.nominate(p.uid(), "n1");
    cache.putPod(p.withAnnotations(Map.of("x", "y"))); // the write of the nomination has not landed yet
    assertEquals(Map.of(p.uid(), "n1"), cache.snapshot().nominations());
  }

  @Test
  void otherSchedulersNominatedPendingPodsAreListedUntilBoundOrGone() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    Pod theirs = TestPods.pod("ns/theirs").cpu("4").scheduler("default-scheduler").build()
        .withNominatedNodeName("n1");
    Pod plain = TestPods.pod("ns/plain").cpu("4").scheduler("default-scheduler").build();
    cache.putPod(theirs);
    cache.putPod(plain);
    assertEquals(List.of(theirs), cache.snapshot().othersNominated());
    assertEquals(Map.of(), cache.snapshot().nominations(), "their scheduler holds it, not ours");
    cache.putPod(theirs.withNodeName("n1"));
    assertEquals(List.of(), cache.snapshot().othersNominated(), "bound");
    cache.putPod(theirs);
    cache.putPod(theirs.withTerminating(true));
    assertEquals(List.of(), cache.snapshot().othersNominated(), "being deleted");
    cache.putPod(theirs);
    assertEquals(List.of(theirs), cache.snapshot().othersNominated());
    cache.removePod(theirs.uid());
    assertEquals(List.of(), cache.snapshot().othersNominated(), "deleted");
  }
}
