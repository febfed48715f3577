package io.basalt.api;

import io.basalt.model.Node;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.Arrays;

/**
 * A node's accounting within a session: allocatable, used (running and placed pods, including releasing ones),
 * releasing (terminating pods whose resources will free up) and pipelined (reserved for tasks waiting on releasing
 * resources). Kept as numbers in one array because every placement decision reads them.
 *
 * <p>Only a {@code Statement} changes a session's nodes, and the session records each change (which node, whether it
 * gave something back) for whoever keeps answers worked out from them: the node knows no index. The cache makes new
 * ones from the cluster, or keeps one a session changed into what the cluster now holds ({@link #copy}).
 */
public final class NodeInfo {
  /** Numbers every copy made in this JVM apart (see {@link #serial}). */
  private static final java.util.concurrent.atomic.AtomicLong SERIALS = new java.util.concurrent.atomic.AtomicLong();

  private final Node node;
  private long generation;
  private final long serial = SERIALS.incrementAndGet();
  /**
   * Per resource slot {@code r}, at {@code r * STRIDE}: allocatable, used, releasing, pipelined, and kept current from
   * them idle (allocatable - used) and future (idle + releasing - pipelined), the fit checks' reads. One array, a
   * slot's numbers side by side: a search's visit reads a few slots' allocatable, used, idle and future, which six
   * arrays spread over six places in memory.
   */
  private long[] acc;
  /** How many slots {@link #acc} holds. */
  private int slots;
  /** Numbers per slot in {@link #acc}; {@link Demand} reads idle and future at these offsets. */
  static final int STRIDE = 6;
  private static final int ALLOCATABLE = 0;
  private static final int USED = 1;
  private static final int RELEASING = 2;
  private static final int PIPELINED = 3;
  static final int IDLE = 4;
  static final int FUTURE = 5;
  private boolean touched;
  /** Counts this copy's changes, so an answer worked out from its state can tell whether it still holds. */
  private int version;
  private int position;
  private final io.basalt.gpu.GpuTopology gpus;
  private final io.basalt.gpu.DeviceUsage devices;

  /**
   * A node with the given accounting; the arrays are copied.
   *
   * @param generation the cache's stamp for this node's state, so a snapshot copies only nodes that changed
   */
  public NodeInfo(Node node, long generation, long[] used, long[] releasing) {
    this(node, generation, used, releasing, null, null);
  }

  /**
   * @param gpus the node's GPU inventory and links, or null for a node without GPUs
   * @param devices which GPUs pods on the node hold (whole or shared); this node takes ownership
   */
  public NodeInfo(Node node, long generation, long[] used, long[] releasing, io.basalt.gpu.GpuTopology gpus,
      io.basalt.gpu.DeviceUsage devices) {
    this.gpus = gpus;
    this.devices = gpus == null ? null
        : devices != null ? devices : new io.basalt.gpu.DeviceUsage(gpus.size());
    this.node = node;
    this.generation = generation;
    long[] allocatable = node.allocatable().toArray(Math.max(ResourceNames.count(),
        Math.max(used.length, releasing.length)));
    int n = allocatable.length;
    this.slots = n;
    this.acc = new long[n * STRIDE];
    for (int i = 0; i < n; i++) {
      acc[i * STRIDE + ALLOCATABLE] = allocatable[i];
      acc[i * STRIDE + USED] = i < used.length ? used[i] : 0;
      acc[i * STRIDE + RELEASING] = i < releasing.length ? releasing[i] : 0;
      refresh(i);
    }
  }

  /**
   * The copy for a node in the given state: {@code previous}, the last copy of the node, when a session changed it
   * into exactly this state (the cluster caught up with what the session placed there, as after its pods were
   * bound), else a new one. Keeping it keeps its {@link #serial} and {@link #version}, so what searches worked out
   * from its state still holds for the next session, which a new copy would make them work out again on every node
   * a cycle placed pods on.
   */
  public static NodeInfo copy(NodeInfo previous, Node node, long generation, long[] used, long[] releasing,
      io.basalt.gpu.GpuTopology gpus, io.basalt.gpu.DeviceUsage devices) {
    if (previous != null && previous.holds(node, used, releasing, gpus, devices)) {
      previous.generation = generation;
      previous.touched = false;
      return previous;
    }
    return new NodeInfo(node, generation, used, releasing, gpus, devices);
  }

  /** Whether a new copy made from these would hold this copy's state (nothing pipelined, the same node object). */
  private boolean holds(Node node, long[] used, long[] releasing, io.basalt.gpu.GpuTopology gpus,
      io.basalt.gpu.DeviceUsage devices) {
    if (node != this.node || gpus != this.gpus) {
      return false;
    }
    for (int i = 0, n = Math.max(slots, Math.max(used.length, releasing.length)); i < n; i++) {
      if (pipelined(i) != 0 || used(i) != (i < used.length ? used[i] : 0)
          || releasing(i) != (i < releasing.length ? releasing[i] : 0)) {
        return false;
      }
    }
    return gpus == null || this.devices.sameAs(devices);
  }

  private void refresh(int i) {
    int at = i * STRIDE;
    long idle = acc[at + ALLOCATABLE] - acc[at + USED];
    long future = idle + acc[at + RELEASING] - acc[at + PIPELINED];
    acc[at + IDLE] = idle;
    acc[at + FUTURE] = future;
  }

  private long read(int r, int field) {
    return r < slots ? acc[r * STRIDE + field] : 0;
  }

  /**
   * Takes {@code position} in the node list of the session that opens over this copy (a copy serves one session at a
   * time): what the session records of its changes names the node by it.
   */
  public void joinSession(int position) {
    this.position = position;
  }

  public Node node() {
    return node;
  }

  public String name() {
    return node.name();
  }

  public long generation() {
    return generation;
  }

  /**
   * A number no other copy made in this JVM has: answers kept across sessions name the copy by it (with
   * {@link #version}) instead of holding it, so a copy the cache has replaced is not kept alive by them.
   */
  public long serial() {
    return serial;
  }

  /**
   * How many times this copy was changed: equal versions of one copy mean an equal state, so an answer worked out
   * from it (a node-local score) still holds.
   */
  public int version() {
    return version;
  }

  /** The node's place in its session's node list (0 for a node no session opened over). */
  public int position() {
    return position;
  }

  /** True once a session changed this copy; the next snapshot then takes a fresh one from the cache. */
  public boolean touched() {
    return touched;
  }

  public long allocatable(int r) {
    return read(r, ALLOCATABLE);
  }

  public long used(int r) {
    return read(r, USED);
  }

  public long releasing(int r) {
    return read(r, RELEASING);
  }

  public long pipelined(int r) {
    return read(r, PIPELINED);
  }

  /** The node's GPUs and their links, or null when it has none. */
  public io.basalt.gpu.GpuTopology gpus() {
    return gpus;
  }

  /** GPUs no pod holds or shares. */
  public io.basalt.gpu.DeviceSet freeDevices() {
    return devices == null ? io.basalt.gpu.DeviceSet.EMPTY : devices.untouched();
  }

  /** Who holds the node's GPUs (null for a node without GPUs). Read-only: change it through a Statement. */
  public io.basalt.gpu.DeviceUsage deviceUsage() {
    return devices;
  }

  public void claimDevices(io.basalt.gpu.DeviceClaim claim, int sign) {
    if (devices != null && !claim.isEmpty()) {
      devices.add(claim, sign);
      touched = true;
      version++;
    }
  }

  /** Free now: allocatable minus used. */
  public long idle(int r) {
    return read(r, IDLE);
  }

  /** Free once releasing pods are gone, minus what pipelined tasks reserved. */
  public long futureIdle(int r) {
    return read(r, FUTURE);
  }

  public ResourceVector usedVector() {
    long[] used = new long[slots];
    for (int i = 0; i < slots; i++) {
      used[i] = acc[i * STRIDE + USED];
    }
    return ResourceVector.of(used);
  }

  /** The first resource {@code request} needs more of than is idle now, or -1 when it fits. */
  public int firstShortOfIdle(ResourceVector request) {
    return firstShortOfIdle(request, null);
  }

  /** As {@link #firstShortOfIdle(ResourceVector)}, not counting the slots {@code skip} marks. */
  public int firstShortOfIdle(ResourceVector request, boolean[] skip) {
    return firstShort(IDLE, request, skip);
  }

  /** The first resource {@code request} needs more of than will be free, or -1 when it fits in the future. */
  public int firstShortOfFuture(ResourceVector request) {
    return firstShortOfFuture(request, null);
  }

  /** As {@link #firstShortOfFuture(ResourceVector)}, not counting the slots {@code skip} marks. */
  public int firstShortOfFuture(ResourceVector request, boolean[] skip) {
    return firstShort(FUTURE, request, skip);
  }

  /** As {@link #firstShortOfIdle(ResourceVector, boolean[])} for a demand worked out once per search. */
  public int firstShortOfIdle(Demand demand) {
    return demand.firstShort(acc, slots, IDLE);
  }

  /** As {@link #firstShortOfFuture(ResourceVector, boolean[])} for a demand worked out once per search. */
  public int firstShortOfFuture(Demand demand) {
    return demand.firstShort(acc, slots, FUTURE);
  }

  /** The first slot, in ascending order, where {@code request} needs more than {@code field} has, or -1. */
  private int firstShort(int field, ResourceVector request, boolean[] skip) {
    for (int i : request.positiveSlots()) {
      if (request.get(i) > read(i, field) && (skip == null || i >= skip.length || !skip[i])) {
        return i;
      }
    }
    return -1;
  }

  /**
   * For a task holding a reservation here: -1 when it fits once releasing pods are gone, counting what it holds as
   * its own; else the first resource short.
   */
  public int firstShortOfFutureWithReservation(ResourceVector request) {
    for (int i = 0, n = request.size(); i < n; i++) {
      long q = request.get(i);
      if (q > 0 && futureIdle(i) < 0) {
        return i;
      }
    }
    return -1;
  }

  /** Adds ({@code sign} 1) or takes back (-1) what running and placed pods use. */
  public void adjustUsed(ResourceVector r, int sign) {
    fit(r.size());
    for (int i = 0, n = r.size(); i < n; i++) {
      long q = r.get(i);
      if (q != 0) { // the rest is as it was: no refresh
        acc[i * STRIDE + USED] += sign * q;
        refresh(i);
      }
    }
    touched = true;
    version++;
  }

  /** Adds or takes back what pipelined tasks hold here until releasing pods are gone. */
  public void adjustPipelined(ResourceVector r, int sign) {
    fit(r.size());
    for (int i = 0, n = r.size(); i < n; i++) {
      long q = r.get(i);
      if (q != 0) { // the rest is as it was: no refresh
        acc[i * STRIDE + PIPELINED] += sign * q;
        refresh(i);
      }
    }
    touched = true;
    version++;
  }

  /** Adds or takes back what terminating (or evicted) pods will free. */
  public void adjustReleasing(ResourceVector r, int sign) {
    fit(r.size());
    for (int i = 0, n = r.size(); i < n; i++) {
      long q = r.get(i);
      if (q != 0) { // the rest is as it was: no refresh
        acc[i * STRIDE + RELEASING] += sign * q;
        refresh(i);
      }
    }
    touched = true;
    version++;
  }

  /** Grows every array to {@code size} slots (a resource first seen after this node was built). */
  private void fit(int size) {
    if (size <= slots) {
      return;
    }
    long[] allocatable = node.allocatable().toArray(size);
    size = allocatable.length;
    acc = Arrays.copyOf(acc, size * STRIDE);
    slots = size;
    version++;
    for (int i = 0; i < size; i++) {
      acc[i * STRIDE + ALLOCATABLE] = allocatable[i];
      refresh(i);
    }
  }

  @Override
  public String toString() {
    return "Node[" + name() + " used=" + usedVector() + "]";
  }
}
