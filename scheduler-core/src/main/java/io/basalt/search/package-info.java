/**
 * The node search: which node a task goes to, and everything that makes asking cheap. Its face is
 * {@link io.basalt.search.NodeSearch}; the rest is package-private. Every shortcut here must choose what asking every
 * node afresh would choose (the "same decisions" check holds the project to it).
 *
 * <h2>What is kept, keyed by what, dropped when</h2>
 * <ul>
 *   <li><b>Equivalence cache</b> ({@code EquivalenceCache}, one per search, across sessions): per node, the verdict
 *       (short of resources, filtered, feasible now or later) and the summed score for tasks of one
 *       {@code EquivalenceKey}: the request plus what each filter and scorer signs of the pod
 *       ({@link io.basalt.framework.PodSigner}). A plugin that signs nothing makes the verdicts (or the scores) of
 *       that task unkept: reuse is opt-in, and correct by default. An entry holds while the node copy
 *       ({@code NodeInfo.serial}) and its {@code version} are those it was found at; a new resource name drops all,
 *       keys no search of the last session used are dropped, and a memory bound caps the keys. When only some scorers
 *       sign, their scores are kept per node for the session alone and the rest asked. A {@code FeasibilityTree} per
 *       often-searched key finds a search's window and best node in O(log n); it re-asks the nodes the change log
 *       names.</li>
 *   <li><b>Capacity index</b> ({@code CapacityIndex}, one per session, in its cycle state): a max-tree of future free
 *       amount per resource over node positions, so a search skips nodes too full to fit. It is brought up to date from
 *       the session's {@link io.basalt.session.NodeChanges} before it answers (nodes know no index), and starts from
 *       an earlier session's trees where a position holds the same copy at the same version.</li>
 *   <li><b>"No node fits" memo</b> ({@code NoFitMemo}, per session): shapes ({@code TaskShape}) that found no node,
 *       each forgotten once a node the change log marks as having given something back takes it; trials (preempt,
 *       reclaim) checkpoint and restore it. {@code Diagnosis} keeps the "0/N nodes are available" counts per kind of
 *       pod, re-reading only changed nodes. Neither holds a task some filter declines to sign
 *       ({@link io.basalt.framework.PodSigner} answering null): its answer may read other pods, which a placement
 *       or eviction anywhere changes, so its failure is not remembered and its message is worked out afresh.</li>
 *   <li><b>Prepared checks</b> ({@code PreparedChecks}): filters and scorers prepared once per task
 *       ({@link io.basalt.framework.PreparedFilter}, {@link io.basalt.framework.PreparedScorer}), shared by the tasks of
 *       one fully signed key within a session.</li>
 * </ul>
 * With {@code --explain} nothing is kept: every answer is asked and recorded.
 *
 * <h2>Filters that read other pods</h2>
 * Inter-pod affinity, anti-affinity and topology spread answer from the pods already on (or placed this cycle on)
 * the nodes of a topology domain, not from the node alone, so a node whose own version did not change may still
 * change its answer. They fit as follows. Such a plugin keeps, per constraint it has seen (a label selector with its
 * topology key), counts of matching pods per topology value, computed once per session from the snapshot (as
 * kube-scheduler's PreFilter does) and kept current from the change log and the statement's placements (a discarded
 * gang's placements are undone with it, so it leaves nothing). A pod's answer on a node then reads the count of the
 * node's topology value, O(1) per node, never a scan of all pods. For reuse it has two choices: sign nothing (its
 * answers are asked every time, which costs a counter read per node, and the other plugins' answers are still
 * reused through the per-scorer path), or sign with the pod's constraint terms plus a version of the counts it read
 * (a counter bumped whenever a count of that constraint changes), so equal signatures still mean equal answers and a
 * placement that moves a count makes the next pod's key new instead of serving a stale verdict. Incoming pods without
 * such terms are unaffected unless existing pods' anti-affinity can refuse them; a plugin that must check existing
 * pods' terms signs with the version of those terms' counts too.
 */
package io.basalt.search;
