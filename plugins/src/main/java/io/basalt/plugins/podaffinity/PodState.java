package io.basalt.plugins.podaffinity;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.SessionView;
import io.basalt.model.LabelSelector;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pods of one session as inter-pod affinity counts them: those on the nodes when it opened
 * ({@link SessionView#podsOn}, every scheduler's) and every placement and eviction since, in the order the
 * statements made them (a discarded gang's placements come back as removals, so it leaves nothing).
 *
 * <p>Counts are worked out on demand, as kube-scheduler's PreFilter and PreScore work them out per pod, but kept
 * for the session: per {@link Tally} (an incoming pod's terms, read for it) the matching pods per topology pair, and
 * per {@link View} (what an incoming pod's namespace and labels are to the pods that carry terms) the existing pods'
 * required anti-affinity and the weights of their terms. Each is made once from the pods at open, then brought up to
 * date from the change log when next asked, so a placement costs an append and a count is read in O(1) per node.
 * The pods that carry terms at all, the few, are indexed apart: a pod's labels are checked against them, not against
 * every pod.
 */
final class PodState implements AllocationListener {
  /** One pod where it is, with its own terms read for it (null when it carries none). */
  record PodAt(Pod pod, NodeInfo node, Terms terms) {
    Map<String, String> nodeLabels() {
      return node.node().labels();
    }
  }

  /** A pod's own terms, read for it; weights of preferred terms aligned with them. */
  record Terms(List<Term> requiredAffinity, List<Term> requiredAnti, List<Term> preferredAffinity,
      int[] preferredAffinityWeights, List<Term> preferredAnti, int[] preferredAntiWeights) {
    static Terms of(Pod pod) {
      PodConstraints c = pod.constraints();
      if (!c.hasPodAffinity()) {
        return null;
      }
      return new Terms(Term.of(c.requiredAffinity(), pod), Term.of(c.requiredAntiAffinity(), pod),
          weighted(c.preferredAffinity(), pod), weights(c.preferredAffinity()),
          weighted(c.preferredAntiAffinity(), pod), weights(c.preferredAntiAffinity()));
    }

    private static List<Term> weighted(List<WeightedPodAffinityTerm> terms, Pod pod) {
      List<Term> out = new ArrayList<>(terms.size());
      for (WeightedPodAffinityTerm t : terms) {
        out.add(Term.of(t.term(), pod));
      }
      return out;
    }

    private static int[] weights(List<WeightedPodAffinityTerm> terms) {
      int[] w = new int[terms.size()];
      for (int i = 0; i < w.length; i++) {
        w[i] = terms.get(i).weight();
      }
      return w;
    }
  }

  /**
   * Terms of an incoming pod to count existing pods by: with {@code all}, a pod counts only when it matches every
   * term, and then once for each term's pair (required affinity); else each term it matches counts it, by that
   * term's weight (required anti-affinity with weights 1, preferred terms with their weights, negative for
   * anti-affinity).
   */
  record Tally(List<Term> terms, List<Integer> weights, boolean all) {}

  /**
   * A tally's counts, current up to {@code seen} entries of each log it reads: per term, the changes of pods carrying
   * the label value the term requires (or the whole log when it requires none); with {@code all}, one such log.
   */
  static final class Counted {
    final TopologyCounts counts = new TopologyCounts();
    List<Change>[] sources;
    int[] seen;
  }

  /**
   * What the pods carrying terms make of one kind of incoming pod (its namespace and labels): their required
   * anti-affinity counted per pair, and the weights of their terms summed per pair (required affinity by the hard
   * weight, preferred affinity added, preferred anti-affinity taken off).
   */
  static final class View {
    final TopologyCounts anti = new TopologyCounts();
    final TopologyCounts score = new TopologyCounts();
    /** The {@link TermLog} lists the view reads, and how far it read each. */
    List<List<TermLog.Entry>> sources;
    int[] seen;
  }

  private record Change(PodAt at, int delta) {}

  /**
   * The log's changes by each label of their pod: a term requiring a label value reads only its list. Null until a
   * tally first asks (most sessions count nothing), then filed from the log and kept as it grows.
   */
  private Map<String, Map<String, List<Change>>> logByLabel;

  private record PodKey(String namespace, Map<String, String> labels) {}

  private final SessionView session;
  private final long hardPodAffinityWeight;
  private final List<Change> log = new ArrayList<>();
  /** The log's changes of pods carrying terms. */
  private final List<Change> termLog = new ArrayList<>();
  private NodeDomains nodeDomains;
  /** Their terms, filed by the label value each requires. */
  private final TermLog termEntries = new TermLog();
  private final Map<Tally, Counted> tallies = new HashMap<>();
  private final Map<PodKey, View> views = new HashMap<>();
  private final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
  /** Pods carrying terms when the session opened; null until first needed. */
  private List<PodAt> termPodsAtOpen;
  /**
   * {@link #termPodsAtOpen} by a label value each of their terms requires, and those with a term requiring none; null
   * until a view first needs them.
   */
  private Map<Map.Entry<String, String>, List<PodAt>> termPodIndex;
  private List<PodAt> unindexedTermPods;
  private int termPods;
  private int requiredAntiPods;

  PodState(SessionView session, long hardPodAffinityWeight) {
    this.session = session;
    this.hardPodAffinityWeight = hardPodAffinityWeight;
  }

  @Override
  public void onAllocate(TaskInfo task) {
    changed(task, 1);
  }

  @Override
  public void onDeallocate(TaskInfo task) {
    changed(task, -1);
  }

  private void changed(TaskInfo task, int delta) {
    NodeInfo node = task.nodeName() == null ? null : session.node(task.nodeName());
    if (node == null) {
      return;
    }
    Pod pod = task.pod();
    Change c = new Change(new PodAt(pod, node, Terms.of(pod)), delta);
    log.add(c);
    if (logByLabel != null) {
      file(c);
    }
    if (c.at().terms() != null) {
      termLog.add(c);
      termEntries.add(c.at().terms(), node.node().labels(), delta, hardPodAffinityWeight);
      if (termPodsAtOpen != null) {
        termPods += delta;
        requiredAntiPods += c.at().terms().requiredAnti().isEmpty() ? 0 : delta;
      }
    }
  }

  /** The session's nodes by topology pair. */
  NodeDomains nodeDomains() {
    if (nodeDomains == null) {
      nodeDomains = new NodeDomains(session.nodes());
    }
    return nodeDomains;
  }

  /** How many placements and evictions the session made so far: counts read at one value hold until it moves. */
  int changes() {
    return log.size();
  }

  /** Whether no pod carries a term of any kind now. */
  boolean noTermPods() {
    open();
    return termPods == 0;
  }

  /** Whether no pod carries required anti-affinity now: then no existing pod refuses anyone. */
  boolean noRequiredAnti() {
    open();
    return requiredAntiPods == 0;
  }

  private void open() {
    if (termPodsAtOpen != null) {
      return;
    }
    List<PodAt> found = new ArrayList<>();
    for (Pod pod : session.assignedPods().withAffinity()) {
      NodeInfo node = session.node(pod.nodeName());
      if (node != null) {
        found.add(new PodAt(pod, node, Terms.of(pod)));
      }
    }
    termPodsAtOpen = found;
    List<Change> all = new ArrayList<>();
    for (PodAt at : found) {
      all.add(new Change(at, 1));
    }
    all.addAll(termLog);
    for (Change c : all) {
      termPods += c.delta();
      requiredAntiPods += c.at().terms().requiredAnti().isEmpty() ? 0 : c.delta();
    }
  }

  private void file(Change c) {
    for (Map.Entry<String, String> label : c.at().pod().labels().entrySet()) {
      logOf(label).add(c);
    }
  }

  private List<Change> logOf(Map.Entry<String, String> label) {
    if (logByLabel == null) {
      logByLabel = new HashMap<>();
      for (Change c : log) {
        file(c);
      }
    }
    return logByLabel.computeIfAbsent(label.getKey(), k -> new HashMap<>())
        .computeIfAbsent(label.getValue(), v -> new ArrayList<>());
  }

  /** {@code tally}'s counts as the pods stand now. */
  @SuppressWarnings("unchecked")
  TopologyCounts counts(Tally tally) {
    Counted c = tallies.get(tally);
    if (c == null) {
      c = new Counted();
      tallies.put(tally, c);
      countAtOpen(tally, c.counts);
      List<Term> terms = tally.terms();
      c.sources = new List[tally.all() ? 1 : terms.size()];
      c.seen = new int[c.sources.length];
      if (tally.all()) {
        // A pod counts only when every term matches it: any term's required label finds all it may count.
        Map.Entry<String, String> label = null;
        for (int i = 0; i < terms.size() && label == null; i++) {
          label = requiredLabel(terms.get(i));
        }
        c.sources[0] = label == null ? log : logOf(label);
      } else {
        for (int i = 0; i < terms.size(); i++) {
          Map.Entry<String, String> label = requiredLabel(terms.get(i));
          c.sources[i] = label == null ? log : logOf(label);
        }
      }
    }
    for (int s = 0; s < c.sources.length; s++) {
      List<Change> source = c.sources[s];
      for (int n = source.size(); c.seen[s] < n; c.seen[s]++) {
        Change ch = source.get(c.seen[s]);
        if (tally.all()) {
          count(tally, c.counts, ch.at().pod(), ch.at().node(), ch.delta());
        } else {
          countTerm(tally, s, c.counts, ch.at().pod(), ch.at().node(), ch.delta());
        }
      }
    }
    return c.counts;
  }

  /** A label value every pod {@code term} matches carries; null when it requires none (or matches no pod). */
  private static Map.Entry<String, String> requiredLabel(Term term) {
    return term.selector() == null ? null : term.selector().requiredLabel();
  }

  private void countTerm(Tally tally, int i, TopologyCounts counts, Pod pod, NodeInfo node, int delta) {
    Term t = tally.terms().get(i);
    if (t.matches(pod, namespaceLabels(pod.namespace()))) {
      String key = t.topologyKey();
      counts.add(key, node.node().labels().get(key), (long) delta * tally.weights().get(i));
    }
  }

  /**
   * Counts the pods at open for {@code tally}: only those carrying a label its terms require, when each term requires
   * one (see {@link io.basalt.api.AssignedPods#candidates}), else every pod.
   */
  private void countAtOpen(Tally tally, TopologyCounts counts) {
    io.basalt.api.AssignedPods assigned = session.assignedPods();
    List<Term> terms = tally.terms();
    List<List<Pod>> candidates = new ArrayList<>(terms.size());
    for (Term t : terms) {
      List<Pod> found = assigned.candidates(t.selector());
      if (found == null && !tally.all()) {
        candidates = null;
        break;
      }
      candidates.add(found);
    }
    if (candidates != null && tally.all()) {
      List<Pod> fewest = null;
      for (List<Pod> found : candidates) {
        fewest = found != null && (fewest == null || found.size() < fewest.size()) ? found : fewest;
      }
      candidates = fewest == null ? null : List.of(fewest);
    }
    if (candidates == null) {
      for (NodeInfo node : session.nodes()) {
        for (Pod pod : session.podsOn(node)) {
          count(tally, counts, pod, node, 1);
        }
      }
      return;
    }
    if (tally.all()) {
      for (Pod pod : candidates.get(0)) {
        NodeInfo node = session.node(pod.nodeName());
        if (node != null) {
          count(tally, counts, pod, node, 1);
        }
      }
      return;
    }
    for (int i = 0; i < terms.size(); i++) {
      Term t = terms.get(i);
      long weight = tally.weights().get(i);
      for (Pod pod : candidates.get(i)) {
        NodeInfo node = session.node(pod.nodeName());
        if (node != null && t.matches(pod, namespaceLabels(pod.namespace()))) {
          counts.add(t.topologyKey(), node.node().labels().get(t.topologyKey()), weight);
        }
      }
    }
  }

  private void count(Tally tally, TopologyCounts counts, Pod pod, NodeInfo node, int delta) {
    List<Term> terms = tally.terms();
    Map<String, String> ns = namespaceLabels(pod.namespace());
    Map<String, String> labels = node.node().labels();
    if (tally.all()) {
      for (int i = 0, n = terms.size(); i < n; i++) {
        if (!terms.get(i).matches(pod, ns)) {
          return;
        }
      }
      for (int i = 0, n = terms.size(); i < n; i++) {
        String key = terms.get(i).topologyKey();
        counts.add(key, labels.get(key), (long) delta * tally.weights().get(i));
      }
      return;
    }
    for (int i = 0, n = terms.size(); i < n; i++) {
      Term t = terms.get(i);
      if (t.matches(pod, ns)) {
        counts.add(t.topologyKey(), labels.get(t.topologyKey()), (long) delta * tally.weights().get(i));
      }
    }
  }

  /** What the pods carrying terms make of {@code pod}, as they stand now. */
  View view(Pod pod) {
    open();
    PodKey key = new PodKey(pod.namespace(), pod.labels());
    View v = views.get(key);
    if (v == null) {
      v = new View();
      views.put(key, v);
      for (PodAt at : termPodsFor(pod)) {
        see(v, at, pod, 1);
      }
      v.sources = termEntries.sources(pod.labels());
      v.seen = new int[v.sources.size()];
    }
    Map<String, String> ns = null;
    for (int s = 0; s < v.seen.length; s++) {
      List<TermLog.Entry> source = v.sources.get(s);
      for (int n = source.size(); v.seen[s] < n; v.seen[s]++) {
        TermLog.Entry e = source.get(v.seen[s]);
        if (ns == null) {
          ns = namespaceLabels(pod.namespace());
        }
        if (e.term().matches(pod, ns)) {
          String topologyKey = e.term().topologyKey();
          (e.anti() ? v.anti : v.score).add(topologyKey, e.nodeLabels().get(topologyKey), e.delta() * e.weight());
        }
      }
    }
    return v;
  }

  /**
   * The pods carrying terms at open that may have a term matching {@code incoming}: a term that requires a label value
   * the incoming pod lacks matches it in no namespace, so only pods with a term requiring none, or requiring one the
   * incoming pod carries, are read. Each at most once.
   */
  private Collection<PodAt> termPodsFor(Pod incoming) {
    if (termPodIndex == null) {
      indexTermPods();
    }
    if (termPodIndex.isEmpty()) {
      return unindexedTermPods;
    }
    Set<PodAt> found = Collections.newSetFromMap(new IdentityHashMap<>());
    found.addAll(unindexedTermPods);
    for (Map.Entry<String, String> label : incoming.labels().entrySet()) {
      List<PodAt> pods = termPodIndex.get(label);
      if (pods != null) {
        found.addAll(pods);
      }
    }
    return found;
  }

  private void indexTermPods() {
    termPodIndex = new HashMap<>();
    unindexedTermPods = new ArrayList<>();
    for (PodAt at : termPodsAtOpen) {
      Terms t = at.terms();
      Set<Map.Entry<String, String>> pairs = new java.util.HashSet<>();
      boolean every = required(t.requiredAnti(), pairs) && required(t.requiredAffinity(), pairs)
          && required(t.preferredAffinity(), pairs) && required(t.preferredAnti(), pairs);
      if (!every) {
        unindexedTermPods.add(at);
        continue;
      }
      for (Map.Entry<String, String> pair : pairs) {
        termPodIndex.computeIfAbsent(pair, k -> new ArrayList<>()).add(at);
      }
    }
  }

  /** Adds a label value each of {@code terms} requires to {@code pairs}; false when one requires none. */
  private static boolean required(List<Term> terms, Set<Map.Entry<String, String>> pairs) {
    for (Term term : terms) {
      LabelSelector s = term.selector();
      if (s == null) {
        continue;
      }
      Map.Entry<String, String> pair = null;
      for (Map.Entry<String, String> e : s.matchLabels().entrySet()) {
        pair = Map.entry(e.getKey(), e.getValue());
        break;
      }
      if (pair == null) {
        for (LabelSelector.Requirement r : s.matchExpressions()) {
          if ("In".equals(r.operator()) && r.values().size() == 1) {
            pair = Map.entry(r.key(), r.values().get(0));
            break;
          }
        }
      }
      if (pair == null) {
        return false;
      }
      pairs.add(pair);
    }
    return true;
  }

  private void see(View v, PodAt existing, Pod incoming, int delta) {
    Terms t = existing.terms();
    Map<String, String> ns = namespaceLabels(incoming.namespace());
    Map<String, String> labels = existing.nodeLabels();
    for (Term term : t.requiredAnti()) {
      if (term.matches(incoming, ns)) {
        v.anti.add(term.topologyKey(), labels.get(term.topologyKey()), delta);
      }
    }
    if (hardPodAffinityWeight > 0) {
      for (Term term : t.requiredAffinity()) {
        if (term.matches(incoming, ns)) {
          v.score.add(term.topologyKey(), labels.get(term.topologyKey()), delta * hardPodAffinityWeight);
        }
      }
    }
    score(v.score, t.preferredAffinity(), t.preferredAffinityWeights(), 1, incoming, ns, labels, delta);
    score(v.score, t.preferredAnti(), t.preferredAntiWeights(), -1, incoming, ns, labels, delta);
  }

  private static void score(TopologyCounts score, List<Term> terms, int[] weights, int sign, Pod incoming,
      Map<String, String> ns, Map<String, String> nodeLabels, int delta) {
    for (int i = 0; i < weights.length; i++) {
      Term term = terms.get(i);
      if (term.matches(incoming, ns)) {
        score.add(term.topologyKey(), nodeLabels.get(term.topologyKey()), (long) delta * sign * weights[i]);
      }
    }
  }

  /** A namespace's labels, read once per session (see {@link SessionView#namespaceLabels}). */
  Map<String, String> namespaceLabels(String namespace) {
    return namespaceLabels.computeIfAbsent(namespace, session::namespaceLabels);
  }
}
