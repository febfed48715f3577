package io.basalt.scheduler;

import io.basalt.actions.Action;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.SessionProfile;
import java.util.List;

/**
 * A config compiled for running: the actions in run order, built once (they are stateless), and what sessions open
 * with (each tier entry's arguments read once, a factory for its per-session instance). Immutable, so a reload swaps
 * the whole profile between cycles and a cycle never sees half of an edit. Made by {@link ConfValidator#validate}.
 */
public record SchedulerProfile(List<Action> actions, SessionProfile session) {
  public SchedulerProfile {
    actions = List.copyOf(actions);
  }

  /** The config this profile was compiled from. */
  public SchedulerConf conf() {
    return session.conf();
  }
}
