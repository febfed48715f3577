package io.basalt.actions;

import io.basalt.search.NodeSearch;
import io.basalt.session.Session;

/**
 * One step of a scheduling cycle (enqueue, allocate, backfill, ...), run in the order the config lists them. Built
 * once when a config is compiled and then run every cycle, so nothing an action keeps may carry from one session to
 * the next (per-cycle scratch, like {@link NodeSearch}'s memo, lives in {@code Session.scratch});
 * its constructor reads its {@code configurations} arguments, reporting bad values as problems there.
 */
public interface Action {
  String name();

  void execute(Session session);
}
