package io.basalt.api;

import static io.basalt.testing.TestNodes.node;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A demand worked out once per search answers every fit check as the request read again does. */
class DemandTest {
  private static final String[] NAMES = {"cpu", "memory", "nvidia.com/gpu", "example.com/fpga"};

  @Test
  void answersAsTheRequestDoesWhileTheNodeChanges() {
    Random random = new Random(11);
    for (String name : NAMES) {
      ResourceNames.index(name);
    }
    NodeInfo n = new NodeInfo(node("n").cpu("16").gpu(8).build(), 0, new long[0], new long[0]);
    int shortSeen = 0;
    for (int step = 0; step < 3000; step++) {
      ResourceVector.Builder b = ResourceVector.builder();
      for (String name : NAMES) {
        if (random.nextInt(3) > 0) {
          b.add(name, random.nextInt(name.equals("cpu") ? 20_000 : 10));
        }
      }
      ResourceVector request = b.build();
      boolean[] skip = random.nextBoolean() ? null : new boolean[ResourceNames.count()];
      if (skip != null) {
        skip[ResourceNames.index(NAMES[random.nextInt(NAMES.length)])] = true;
      }
      Demand demand = Demand.of(request, skip);
      assertEquals(n.firstShortOfFuture(request, skip), n.firstShortOfFuture(demand), "step " + step);
      assertEquals(n.firstShortOfIdle(request, skip), n.firstShortOfIdle(demand), "step " + step);
      shortSeen += n.firstShortOfFuture(demand) >= 0 ? 1 : 0;
      ResourceVector change = ResourceVector.builder().add("nvidia.com/gpu", random.nextInt(3))
          .add("cpu", random.nextInt(4000)).build();
      switch (random.nextInt(3)) {
        case 0 -> n.adjustUsed(change, random.nextBoolean() ? 1 : -1);
        case 1 -> n.adjustPipelined(change, random.nextBoolean() ? 1 : -1);
        default -> n.adjustReleasing(change, random.nextBoolean() ? 1 : -1);
      }
    }
    // Both answers occur, so the comparison above covered fitting and short nodes alike.
    assertEquals(true, shortSeen > 100 && shortSeen < 2900, "short " + shortSeen);
  }
}
