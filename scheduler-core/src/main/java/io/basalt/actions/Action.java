package io.basalt.actions;

import io.basalt.session.Session;

/**
 * One step of a scheduling cycle (enqueue, allocate, backfill, ...), run in the order the config lists them. Built
 * once when a config is compiled and then run every cycle, so an action keeps no state from one session to the next;
 * its constructor reads its {@code configurations} arguments, reporting bad values as problems there.
 */
public interface Action {
  String name();

  void execute(Session session);
}
