package io.basalt.actions;

import io.basalt.session.Session;

/** One step of a scheduling cycle (enqueue, allocate, backfill, ...), run in the order the config lists them. */
public interface Action {
  String name();

  void execute(Session session);
}
