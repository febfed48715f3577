package io.basalt.app.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.app.replay.DeviceLedger.Kind;
import io.basalt.app.replay.DeviceLedger.Violation;
import io.basalt.app.replay.OpenbTrace.TraceNode;
import io.basalt.app.replay.OpenbTrace.TracePod;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay's own books catch each kind of wrong placement, and only those. */
class DeviceLedgerTest {
  private final DeviceLedger ledger = new DeviceLedger(List.of(new TraceNode("t4", 64_000, 262_144, 2, "T4")));

  private static TracePod pod(int gpus, int milli, String spec) {
    return new TracePod("p", 1000, 1024, gpus, milli, spec, 0, 10, 0);
  }

  private List<Kind> kinds() {
    return ledger.violations().stream().map(Violation::kind).toList();
  }

  @Test
  void sharesUpTo1000MilliAndWholeDevicesAloneAreFine() {
    ledger.place("a", pod(1, 600, ""), "t4", "0");
    ledger.place("b", pod(1, 400, ""), "t4", "0");
    ledger.place("c", pod(1, 1000, "T4"), "t4", "1");
    assertEquals(List.of(), ledger.violations());
    assertEquals(2000, ledger.allocatedMilli());
    ledger.release("c");
    ledger.place("d", pod(1, 1000, ""), "t4", null);
    assertEquals(List.of(), ledger.violations(), "without a device choice the free device 1 is taken");
  }

  @Test
  void sharesOverADeviceAreCaught() {
    ledger.place("a", pod(1, 600, ""), "t4", "0");
    ledger.place("b", pod(1, 600, ""), "t4", "0");
    assertEquals(List.of(Kind.OVER_1000), kinds());
  }

  @Test
  void aWholeDeviceWithAnotherPodIsCaught() {
    ledger.place("a", pod(1, 300, ""), "t4", "0");
    ledger.place("b", pod(1, 1000, ""), "t4", "0");
    assertEquals(List.of(Kind.WHOLE_SHARED, Kind.OVER_1000), kinds());
  }

  @Test
  void moreWholeGpusThanTheNodeHasAreCaught() {
    ledger.place("a", pod(1, 1000, ""), "t4", null);
    ledger.place("b", pod(1, 1000, ""), "t4", null);
    ledger.place("c", pod(1, 1000, ""), "t4", null);
    assertEquals(List.of(Kind.WHOLE_SHARED, Kind.OVER_1000), kinds(), "the third 1-GPU pod on a 2-GPU node");
    ledger.place("d", pod(4, 1000, ""), "t4", null);
    assertEquals(Kind.DEVICE_COUNT, kinds().get(2));
  }

  @Test
  void aGpuSpecNotMetIsCaught() {
    ledger.place("a", pod(1, 1000, "V100M16|V100M32"), "t4", "0");
    assertEquals(List.of(Kind.GPU_SPEC), kinds());
  }
}
