package io.basalt.gpu;

/** One GPU of a node as its topology reports it; {@code uuid} and {@code model} may be empty when unknown. */
public record GpuDevice(int index, String uuid, String model, long memoryMiB) {}
