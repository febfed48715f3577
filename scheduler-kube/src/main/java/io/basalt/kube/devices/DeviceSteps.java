package io.basalt.kube.devices;

import io.basalt.kube.devices.hami.HamiPreBind;
import io.basalt.kube.prebind.PreBindSteps;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The Kubernetes halves of the device protocols, as the pre-bind steps both binders run. Basalt's own protocol has
 * none: its annotations ride on the binding as the engine wrote them. A new protocol with writes of its own adds its
 * step here, in a package beside {@code hami}.
 */
public final class DeviceSteps {
  private DeviceSteps() {}

  /** @param clock when each bind is sent (time stamps) and locks are taken */
  public static PreBindSteps all(Supplier<Instant> clock) {
    return new PreBindSteps(List.of(new HamiPreBind(clock), new io.basalt.kube.devices.dra.ClaimPreBind()));
  }
}
