package io.basalt.scheduler;

import io.basalt.session.SessionResult;

/** Receives the status a session wants written back: PodGroup phases and conditions, pending pods' reasons. */
public interface StatusSink {
  StatusSink NONE = result -> {};

  void update(SessionResult result);
}
