package io.basalt.framework;

import io.basalt.session.Session;

/**
 * A scheduling plugin. One instance is built per session from its {@code arguments}; when the session opens it
 * registers the callbacks it implements ({@code session.addFilter(this, ...)} and friends). The session decides,
 * from the tier entry's enable flags, which registrations take effect: plugins never read the flags.
 */
public interface Plugin {
  String name();

  void onSessionOpen(Session session);

  /** Called once all actions ran: write job conditions, release per-session state. */
  default void onSessionClose(Session session) {}
}
