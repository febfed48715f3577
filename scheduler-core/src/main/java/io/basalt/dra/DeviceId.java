package io.basalt.dra;

/** A device as allocation results name it: driver, pool and device name. */
public record DeviceId(String driver, String pool, String device) {
  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
