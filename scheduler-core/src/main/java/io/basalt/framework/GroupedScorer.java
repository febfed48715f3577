package io.basalt.framework;

import io.basalt.api.TaskInfo;

/**
 * Optional for a {@link NodeScorer} whose answer for some tasks is one value per group of nodes, a value that moves as
 * the session places pods (the network-topology nudge: the used share of a node's domain). Such an answer reads
 * other nodes, so it cannot be signed ({@link PodSigner}); said this way, the node search still keeps every other
 * answer for the task's equivalence class and re-adds only this one, for the nodes of a group whose value moved,
 * instead of asking every node it visits.
 */
public interface GroupedScorer extends NodeScorer {
  /**
   * The groups {@code task}'s answers come from, or null when they do not (the task is then signed or asked as
   * usual). Every task it answers for in a session gets the same groups: equal tasks share their kept answers.
   */
  Groups groups(TaskInfo task);

  /**
   * The session's nodes by position ({@link io.basalt.api.NodeInfo#position}) in groups, and each group's value now:
   * {@link #score} on a node of group {@code g} equals {@code value(g)}, and on a node in no group, 0.
   */
  interface Groups {
    /** The group of the session's node at {@code position}, or -1 when it is in none. */
    int groupOf(int position);

    /** How many groups there are: they are numbered from 0. */
    int count();

    /** The answer on every node of group {@code g}, now. */
    double value(int g);

    /** A number that changes whenever {@link #value} of {@code g} may have: equal stamps, equal values. */
    int stamp(int g);

    /** The positions of group {@code g}'s nodes, ascending (a search re-scores them in one pass). */
    int[] members(int g);
  }
}
