package io.basalt.session;

import io.basalt.dra.ClaimLedger;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.gpu.DeviceClaim;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction over a session: tentative placements recorded with enough to undo them. A gang is placed inside one
 * statement and either committed (bound when the session closes) or discarded in O(changes), so it is never
 * partially bound.
 */
public final class Statement {
  private enum Kind { ALLOCATE, PIPELINE, EVICT }

  /**
   * One change; {@code held} is the nominated node whose reservation the task gave up by being placed, and
   * {@code devices} the GPUs it took there.
   */
  private record Op(Kind kind, TaskInfo task, NodeInfo node, TaskStatus previous, String previousNode,
      String reason, NodeInfo held, DeviceClaim devices, ClaimLedger.Booking claims) {
    Op(Kind kind, TaskInfo task, NodeInfo node, TaskStatus previous, String previousNode, String reason,
        NodeInfo held) {
      this(kind, task, node, previous, previousNode, reason, held, DeviceClaim.NONE, ClaimLedger.Booking.NONE);
    }
  }

  private final Session session;
  private final List<Op> ops = new ArrayList<>();

  Statement(Session session) {
    this.session = session;
  }

  /** Places {@code task} on {@code node}, whose idle resources must fit it. */
  public void allocate(TaskInfo task, NodeInfo node) {
    DeviceClaim devices = session.callbacks().chooseDevices(task, node);
    DeviceClaim booked = devices != null ? devices : session.callbacks().fallbackDevices(task, node);
    ops.add(new Op(Kind.ALLOCATE, task, node, task.status(), task.nodeName(), null, releaseReservation(task),
        booked, session.bookClaims(task, node)));
    node.adjustUsed(task.request(), 1);
    node.claimDevices(booked, 1);
    session.changed(node, false);
    task.setDevices(devices != null || mustTell(task, node, booked) ? booked : DeviceClaim.NONE);
    task.place(TaskStatus.ALLOCATED, node.name());
    session.onPlaced(task);
  }

  /**
   * Whether devices booked with no plugin choosing them must still be written on the pod: where a device protocol
   * besides Basalt's speaks for the resource (HAMi's device plugin allocates only what the pod's annotations and the
   * node lock name), whatever the tiers hold. Elsewhere the booking stays the session's accounting only.
   */
  private static final String NVIDIA_GPU = io.basalt.gpu.GpuResources.DEFAULT.get(0);

  private boolean mustTell(TaskInfo task, NodeInfo node, DeviceClaim booked) {
    if (booked.isEmpty()) {
      return false;
    }
    // NVIDIA's whole GPUs only: on MetaX nodes MetaX's own device plugin hands out whole GPUs (HAMi locks only for
    // sGPU shares, which deviceshare chooses), so a fallback booking there stays unwritten as before.
    if (task.request().get(NVIDIA_GPU) <= 0) {
      return false;
    }
    java.util.Map<String, String> annotations = node.node().annotations();
    for (io.basalt.gpu.DeviceProtocol p : io.basalt.gpu.protocol.DeviceProtocols.ALL) {
      if (p != io.basalt.gpu.protocol.DeviceProtocols.BASALT
          && session.deviceProtocol().speaks(p, NVIDIA_GPU, annotations)) {
        return true;
      }
    }
    return false;
  }

  /** Reserves {@code node} for {@code task} until releasing resources there are gone. */
  public void pipeline(TaskInfo task, NodeInfo node) {
    ops.add(new Op(Kind.PIPELINE, task, node, task.status(), task.nodeName(), null, releaseReservation(task)));
    node.adjustPipelined(task.request(), 1);
    session.changed(node, false);
    task.place(TaskStatus.PIPELINED, node.name());
    session.onPlaced(task);
  }

  /** Marks a running task for eviction; its resources become releasing. */
  public void evict(TaskInfo task, String reason) {
    NodeInfo node = session.node(task.nodeName());
    ops.add(new Op(Kind.EVICT, task, node, task.status(), task.nodeName(), reason, null));
    if (node != null) {
      node.adjustReleasing(task.request(), 1);
      session.changed(node, true);
    }
    task.place(TaskStatus.RELEASING, task.nodeName());
    session.callbacks().deallocated(task);
    session.freed();
  }

  public boolean isEmpty() {
    return ops.isEmpty();
  }

  /**
   * Takes over {@code inner}'s changes, as if made here: a part of a job tried on its own (a MetaX group in one
   * domain) joins the job's statement once it fits, and is discarded alone when it does not.
   */
  public void absorb(Statement inner) {
    ops.addAll(inner.ops);
    inner.ops.clear();
  }

  /** Makes the placements final: allocations are bound and evictions carried out when the session closes. */
  public void commit() {
    for (Op op : ops) {
      switch (op.kind()) {
        case ALLOCATE -> session.recordBinding(op.task(), op.claims());
        case EVICT -> session.recordEviction(op.task(), op.reason());
        case PIPELINE -> { }
      }
    }
    ops.clear();
  }

  /**
   * Keeps the placements for the rest of the session without binding anything: a gang that is pipelined (enough
   * members reserved) but not yet ready holds its nodes so later jobs in this cycle cannot take them.
   */
  public void hold() {
    ops.clear();
  }

  /** Undoes every change, newest first. */
  public void discard() {
    if (!ops.isEmpty()) {
      session.freed();
    }
    for (int i = ops.size() - 1; i >= 0; i--) {
      Op op = ops.get(i);
      TaskInfo task = op.task();
      switch (op.kind()) {
        case ALLOCATE -> {
          op.node().adjustUsed(task.request(), -1);
          op.node().claimDevices(op.devices(), -1);
          session.unbookClaims(op.claims());
          session.changed(op.node(), true);
          task.setDevices(DeviceClaim.NONE);
          session.onUnplaced(task);
        }
        case PIPELINE -> {
          op.node().adjustPipelined(task.request(), -1);
          session.changed(op.node(), true);
          session.onUnplaced(task);
        }
        case EVICT -> {
          if (op.node() != null) {
            op.node().adjustReleasing(task.request(), -1);
            session.changed(op.node(), false);
          }
          session.callbacks().allocated(task);
        }
      }
      task.place(op.previous(), op.previousNode());
      if (op.held() != null) {
        op.held().adjustPipelined(task.request(), 1);
        session.changed(op.held(), false);
        task.reserve(op.held());
      }
    }
    ops.clear();
  }

  /** A nominated task being placed gives up the reservation it held; returns the node it was held on. */
  private NodeInfo releaseReservation(TaskInfo task) {
    NodeInfo held = task.reservation();
    if (held != null) {
      held.adjustPipelined(task.request(), -1);
      session.changed(held, true);
      task.reserve(null);
    }
    return held;
  }
}
