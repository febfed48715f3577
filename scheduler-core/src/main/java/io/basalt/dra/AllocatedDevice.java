package io.basalt.dra;

/**
 * One entry of {@code status.allocation.devices.results}.
 *
 * @param request the request's name, {@code <request>/<subrequest>} for a {@code firstAvailable} choice
 */
public record AllocatedDevice(String request, DeviceId device, boolean adminAccess) {}
