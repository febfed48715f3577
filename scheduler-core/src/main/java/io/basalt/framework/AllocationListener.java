package io.basalt.framework;

import io.basalt.api.TaskInfo;

/** Told about every tentative placement and its undo, so fair-share plugins keep shares current mid-session. */
public interface AllocationListener {
  void onAllocate(TaskInfo task);

  void onDeallocate(TaskInfo task);

  /** A listener that calls {@code update(task, 1)} on placement and {@code update(task, -1)} on its undo. */
  static AllocationListener of(java.util.function.ObjIntConsumer<TaskInfo> update) {
    return new AllocationListener() {
      @Override
      public void onAllocate(TaskInfo task) {
        update.accept(task, 1);
      }

      @Override
      public void onDeallocate(TaskInfo task) {
        update.accept(task, -1);
      }
    };
  }
}
