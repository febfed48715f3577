package io.basalt.dra;

import java.util.List;

/**
 * A {@code resource.k8s.io/v1} DeviceClass: the CEL selectors every device allocated for it must pass, on top of the
 * request's own.
 *
 * @param selectors {@code spec.selectors[].cel.expression}, in order
 */
public record DeviceClass(String name, List<String> selectors) {
  public DeviceClass {
    selectors = List.copyOf(selectors);
  }
}
