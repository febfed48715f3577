package io.basalt.framework;

/**
 * A scheduling plugin. One instance serves one session: when the session opens, the plugin reads what it needs
 * from the {@link SessionView} and offers its callbacks through the {@link Registrar}; when it closes, the plugin
 * may write job conditions.
 */
public interface Plugin {
  String name();

  void onSessionOpen(SessionView session, Registrar registrar);

  /** Called once all actions ran: write job conditions, release per-session state. */
  default void onSessionClose(SessionView session) {}
}
