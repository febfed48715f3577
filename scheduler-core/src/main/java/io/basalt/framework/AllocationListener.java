package io.basalt.framework;

/** Told about every tentative placement and its undo, so fair-share plugins keep shares current mid-session. */
public interface AllocationListener {
  void onAllocate(TaskInfo task);

  void onDeallocate(TaskInfo task);
}
