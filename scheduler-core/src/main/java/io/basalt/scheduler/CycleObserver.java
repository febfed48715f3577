package io.basalt.scheduler;

import io.basalt.session.SessionResult;

/** Told what each cycle took and decided, for metrics; the engine does not depend on a metrics library. */
public interface CycleObserver {
  CycleObserver NONE = new CycleObserver() {
    @Override
    public void actionDone(String action, long nanos) {}

    @Override
    public void cycleDone(SessionResult result, long nanos) {}
  };

  void actionDone(String action, long nanos);

  void cycleDone(SessionResult result, long nanos);
}
