package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.model.Quantities;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.DomainVerdict;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@link DomainPlacer} attempt considered for a job, for {@code --explain}: each domain's free nodes and why
 * it won or lost. A verdict is final only when the attempt ends (a domain ranked second loses only once the first is
 * chosen), so rows are kept here and handed to the session's recorder once, by {@link #emit}.
 *
 * <p>Without {@code --explain} the placer holds {@link #OFF}, shared, whose every method returns at once and changes
 * nothing: the hot path pays a field check per call and computes nothing for it.
 */
final class DomainTrace {
  static final DomainTrace OFF = new DomainTrace(null, null);

  /** Row order: the decision first, then the losers, the nearest miss first (a table may show only the first). */
  private enum Kind { CHOSEN, TRIED, RANKED, TOO_SMALL, ELSEWHERE }

  private static final class Row {
    final String domain;
    final int tier;
    final int group;
    final String free;
    final int order;
    Kind kind;
    String text;
    /** The first pass's verdict when the second pass (a ready gang, not every pod) changed it. */
    String before;
    boolean secondPass;

    Row(String domain, int tier, int group, String free, int order) {
      this.domain = domain;
      this.tier = tier;
      this.group = group;
      this.free = free;
      this.order = order;
    }

    String verdict() {
      String v = before == null ? text : before + "; for a ready gang: " + text;
      return group > 0 ? "group " + group + ": " + v : v;
    }
  }

  private final Session session;
  private final TaskInfo sample;
  private final Map<String, Row> rows = new LinkedHashMap<>();
  private final Map<String, Double> scores = new HashMap<>();
  private int group;
  private boolean secondPass;

  private DomainTrace(Session session, TaskInfo sample) {
    this.session = session;
    this.sample = sample;
  }

  /** A trace for an attempt whose pods look like {@code sample}, or {@link #OFF} when nobody explains. */
  static DomainTrace start(Session session, TaskInfo sample) {
    return session.explain().enabled() ? new DomainTrace(session, sample) : OFF;
  }

  boolean on() {
    return session != null;
  }

  /** Verdicts from now on are about MetaX group {@code n} (1-based); 0: about the whole job. */
  void group(int n) {
    if (on()) {
      group = n;
    }
  }

  /** From now on the placer settles for a ready gang: verdicts that change are added to the first pass's. */
  void secondPass() {
    if (on()) {
      secondPass = true;
    }
  }

  /** The job's placed pods are not all in one domain of {@code tier}: none of its domains can hold the job. */
  void spans(int tier, String within) {
    if (!on()) {
      return;
    }
    for (String d : domains(tier, within)) {
      set(d, tier, Kind.ELSEWHERE, "the job's running pods are not all in one " + label(tier));
    }
  }

  /** Every domain of {@code tier} but {@code pinned}, which holds the job's placed pods. */
  void elsewhere(int tier, String within, String pinned) {
    if (!on()) {
      return;
    }
    for (String d : domains(tier, within)) {
      if (!d.equals(pinned)) {
        set(d, tier, Kind.ELSEWHERE, "the job's running pods are in " + pinned);
      }
    }
  }

  /** {@code domain}'s summed free amount of resource {@code r} falls short of what {@code pods} pods need. */
  void tooSmall(String domain, int tier, int pods, ResourceVector need, int r) {
    if (!on()) {
      return;
    }
    int fit = DomainRoom.nodesFreeFor(session, domain, sample.request(), skip());
    String shortBy = ResourceNames.name(r) + ": " + Quantities.format(r,
        DomainRoom.free(session, domain, r)) + " free, " + Quantities.format(r,
        need.get(r)) + " needed";
    set(domain, tier, Kind.TOO_SMALL, fit >= pods ? "too small: " + shortBy : "too small: " + fit + " free "
        + (fit == 1 ? "node" : "nodes") + " for " + pods + (pods == 1 ? " pod" : " pods") + " (" + shortBy + ")");
  }

  /** The domains with room, best ranked first, and their rank scores. */
  void candidates(int tier, List<String> ranked, Map<String, Double> score) {
    if (!on()) {
      return;
    }
    for (String d : ranked) {
      scores.put(d, score.get(d));
      set(d, tier, Kind.RANKED, "not tried");
    }
  }

  /** The pods were tried in {@code domain}: {@code placed} of {@code of} found a node; the gang's outcome. */
  void result(String domain, int tier, int placed, int of, JobPlacer.Outcome outcome) {
    if (!on()) {
      return;
    }
    String what = group > 0 ? "group" : "gang";
    if (outcome == JobPlacer.Outcome.DISCARDED) {
      set(domain, tier, Kind.TRIED, placed < of ? "tried: " + what + " did not fit (" + placed + " of " + of
          + " pods placed)" : "tried: every pod fit but the gang was not ready");
    } else if (outcome == JobPlacer.Outcome.HELD) {
      set(domain, tier, Kind.CHOSEN, "chosen (pipelined onto resources being released)");
    } else if (placed == 0) {
      set(domain, tier, Kind.CHOSEN, "kept: the gang is ready here already (0 of " + of + " pods placed)");
    } else {
      set(domain, tier, Kind.CHOSEN, placed < of ? "chosen (" + placed + " of " + of + " pods placed, enough for "
          + "the gang)" : "chosen");
    }
  }

  /** {@code ranked.get(chosen)} was chosen: every domain after it lost on rank. */
  void rankedBelow(int tier, List<String> ranked, int chosen) {
    if (!on()) {
      return;
    }
    String winner = ranked.get(chosen);
    double best = scores.getOrDefault(winner, 0.0);
    for (String d : ranked.subList(chosen + 1, ranked.size())) {
      double s = scores.getOrDefault(d, 0.0);
      set(d, tier, Kind.RANKED, "ranked below " + winner + (s < best ? " (fuller first: score " + number(best)
          + " vs " + number(s) + ")" : " (same score " + number(s) + "; by name)"));
    }
  }

  /**
   * The groups did not all fit inside {@code within} (a domain of {@code tier}; null: anywhere): groups placed in
   * that trial were undone, so their "chosen" becomes a lost trial.
   */
  void groupsFailed(String within, int tier, String why) {
    if (!on()) {
      return;
    }
    for (Row row : rows.values()) {
      if (row.group > 0 && row.kind == Kind.CHOSEN && (within == null || DomainPlacer.inside(session.fabric(),
          row.domain, within))) {
        row.kind = Kind.TRIED;
        row.text = "fit, but not every group fit " + (within == null ? "in any " + label(row.tier) : "in " + within);
      }
    }
    if (within != null) {
      int saved = group;
      group = 0;
      set(within, tier, Kind.TRIED, "tried: " + why);
      group = saved;
    }
  }

  /** Soft mode's last resort: the whole cluster. */
  void cluster(JobPlacer.Outcome outcome) {
    if (!on()) {
      return;
    }
    boolean placed = outcome != JobPlacer.Outcome.DISCARDED && outcome != JobPlacer.Outcome.NOTHING_TO_DO;
    Row row = new Row("(whole cluster)", 0, 0, "-", rows.size());
    row.kind = placed ? Kind.CHOSEN : Kind.TRIED;
    row.text = "soft mode, no domain took the gang: " + (placed ? "chosen" : "tried: gang did not fit");
    rows.put("\0cluster", row);
  }

  /** Hands the rows to the session's recorder: by verdict (chosen first), then tier, group and rank. */
  void emit(JobInfo job) {
    if (!on()) {
      return;
    }
    List<Row> sorted = new ArrayList<>(rows.values());
    sorted.sort(Comparator.<Row, Kind>comparing(r -> r.kind).thenComparingInt(r -> r.tier == 0 ? Integer.MAX_VALUE
        : r.tier).thenComparingInt(r -> r.group).thenComparingInt(r -> r.order));
    List<DomainVerdict> out = new ArrayList<>(sorted.size());
    for (Row r : sorted) {
      out.add(new DomainVerdict(r.domain, r.tier, r.free, r.verdict()));
    }
    session.explain().domains(job, out);
  }

  private void set(String domain, int tier, Kind kind, String text) {
    String key = group + "\0" + domain;
    Row row = rows.get(key);
    if (row == null) {
      row = new Row(domain, tier, group, DomainRoom.nodesFreeFor(session, domain, sample.request(), skip()) + "/"
          + session.fabric().readyNodes(domain).size() + " nodes", rows.size());
      row.secondPass = secondPass;
      rows.put(key, row);
    } else if (secondPass && !row.secondPass) {
      if (row.text.equals(text)) {
        return;
      }
      row.before = row.text;
      row.secondPass = true;
    }
    row.kind = kind;
    row.text = text;
  }

  private List<String> domains(int tier, String within) {
    List<String> out = new ArrayList<>();
    for (String d : session.fabric().domains(tier)) {
      if (within == null || DomainPlacer.inside(session.fabric(), d, within)) {
        out.add(d);
      }
    }
    return out;
  }

  private String label(int tier) {
    return DomainRoom.label(session.fabric(), tier);
  }

  private boolean[] skip() {
    return session.callbacks().deviceManagedResources();
  }

  private static String number(double v) {
    double r = Math.round(v * 10) / 10.0;
    return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
  }
}
