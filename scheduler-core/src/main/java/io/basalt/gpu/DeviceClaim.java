package io.basalt.gpu;

/**
 * What a pod holds on a node's GPUs: whole devices (exclusive), or a share of one device (a slice of its compute in
 * percent and of its memory in MiB). Whole and shared pods never hold the same device.
 */
public record DeviceClaim(DeviceSet devices, boolean shared, int cores, long memoryMiB) {
  public static final DeviceClaim NONE = new DeviceClaim(DeviceSet.EMPTY, false, 0, 0);

  public static DeviceClaim whole(DeviceSet devices) {
    return new DeviceClaim(devices, false, 0, 0);
  }

  public static DeviceClaim share(int device, int cores, long memoryMiB) {
    return new DeviceClaim(DeviceSet.of(device), true, cores, memoryMiB);
  }

  public boolean isEmpty() {
    return devices.isEmpty();
  }
}
