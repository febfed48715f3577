package io.basalt.dra;

import java.util.List;

/**
 * One request of a claim: {@code exactly} (a class, selectors, a count or all matching devices, admin access) or
 * {@code firstAvailable}, a prioritized list of such sub-requests of which the first that can be satisfied is used.
 *
 * @param allocationMode {@link #EXACT_COUNT} or {@link #ALL}
 * @param firstAvailable the sub-requests in order (their names are {@code <request>/<subrequest>} in results); empty
 *     for an {@code exactly} request
 */
public record DeviceRequest(String name, String deviceClassName, List<String> selectors, String allocationMode,
    long count, boolean adminAccess, List<DeviceRequest> firstAvailable) {
  public static final String EXACT_COUNT = "ExactCount";
  public static final String ALL = "All";

  public DeviceRequest {
    selectors = List.copyOf(selectors);
    firstAvailable = List.copyOf(firstAvailable);
    allocationMode = allocationMode == null || allocationMode.isEmpty() ? EXACT_COUNT : allocationMode;
  }

  /** An {@code exactly} request for {@code count} devices of {@code deviceClassName}. */
  public static DeviceRequest exactly(String name, String deviceClassName, long count, String... selectors) {
    return new DeviceRequest(name, deviceClassName, List.of(selectors), EXACT_COUNT, count, false, List.of());
  }

  public boolean all() {
    return ALL.equals(allocationMode);
  }
}
