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
 *       ({@link io.basalt.framework.PodSigner}). A filter that signs nothing for a task is a residual filter: the
 *       kept verdict is what the signed filters say, and the residual ones are asked afresh on every node that verdict
 *       lets through (the key marks their slots, so such tasks never share verdicts with fully signed ones). A scorer
 *       that signs nothing makes the task's scores unkept. Reuse is opt-in, and correct by default. An entry holds while the node copy
 *       ({@code NodeInfo.serial}) and its {@code version} are those it was found at; a new resource name drops all,
 *       keys no search of the last session used are dropped, and a memory bound caps the keys. When only some scorers
 *       sign, their scores are kept per node for the session alone and the rest asked. A scorer that signs nothing but
 *       answers one value per group of nodes ({@link io.basalt.framework.GroupedScorer}) keeps the scores: the other
 *       scorers' answers are kept per node ({@code GroupedScores}) and the group's current value is added in its
 *       tier-order place, so the sum is what asking again adds up to. A {@code FeasibilityTree} per
 *       often-searched key finds a search's window and best node in O(log n); it re-asks the nodes the change log
 *       names, and re-scores the feasible nodes of groups whose value moved.</li>
 *   <li><b>Capacity index</b> ({@code CapacityIndex}, one per session, in its cycle state): a max-tree of future free
 *       amount per resource over node positions, so a search skips nodes too full to fit. It is brought up to date from
 *       the session's {@link io.basalt.session.NodeChanges} before it answers (nodes know no index), and starts from
 *       an earlier session's trees where a position holds the same copy at the same version.</li>
 *   <li><b>"No node fits" memo</b> ({@code NoFitMemo}, per session): shapes ({@code TaskShape}) that found no node,
 *       each forgotten once a node the change log marks as having given something back takes it, or, for a task some
 *       filter signs nothing for, at the next change of any node (a placement in another zone can make a spread
 *       pod's node fit); trials (preempt, reclaim) checkpoint and restore it. {@code Diagnosis} keeps the "0/N nodes
 *       are available" counts per kind of pod, re-reading only changed nodes; an unsigned task's message is a fresh
 *       pass instead.</li>
 *   <li><b>Prepared checks</b> ({@code PreparedChecks}): filters and scorers prepared once per task
 *       ({@link io.basalt.framework.PreparedFilter}, {@link io.basalt.framework.PreparedScorer}), shared by the tasks of
 *       one fully signed key within a session.</li>
 * </ul>
 * With {@code --explain} nothing is kept: every answer is asked and recorded.
 *
 * <h2>Scores normalized across the nodes found</h2>
 * A {@link io.basalt.framework.NormalizingScorer} (kube-scheduler's NormalizeScore: node affinity, taint toleration,
 * inter-pod affinity, topology spread) scores a node only next to the other candidates. A search for a task some such
 * scorer speaks for ({@code Candidates}; a scorer says it has nothing to say for a task by returning null from
 * {@code forTask}) visits the same nodes as any search, in the same order, until {@code percentageOfNodesToScore}'s
 * count of feasible nodes is found, with every shortcut for the rest: kept verdicts, kept per-node scores, the
 * capacity index. Instead of keeping the best as it goes, it gathers the feasible nodes with their per-node sums;
 * then each normalizing scorer is asked for its raw scores on all of them, normalizes them, and the normalized values
 * are added before the best is chosen as a scan chooses (strictly higher wins; fits-now before pipelined). Normalizing
 * scorers are never part of an {@code EquivalenceKey} and their answers are never kept, not even within a search's
 * key table: a normalized score depends on which nodes were found. The {@code FeasibilityTree}, which knows a window's
 * best per-node sum but not its feasible nodes, steps aside for such a task (its leaves stay current for the next
 * task of the key without one). Tasks no normalizing scorer speaks for, and sessions without one, search exactly as
 * before. {@code Callbacks.score}, which scores one node alone (preemption's node order), leaves normalizing scorers
 * out; {@code --explain} records each normalized score under its plugin.
 *
 * <h2>Filters that read other pods</h2>
 * Inter-pod affinity, anti-affinity and topology spread answer from the pods already on (or placed this cycle on)
 * the nodes of a topology domain, not from the node alone, so a node whose own version did not change may still
 * change its answer. They fit as follows. Such a plugin keeps, per constraint it has seen (a label selector with its
 * topology key), counts of matching pods per topology value, computed once per session from the snapshot (as
 * kube-scheduler's PreFilter does) and kept current from the change log and the statement's placements (a discarded
 * gang's placements are undone with it, so it leaves nothing). A pod's answer on a node then reads the count of the
 * node's topology value, O(1) per node, never a scan of all pods. Such a filter signs nothing for a pod with
 * constraints: its answers are asked on every visit, a counter read per node, while the other filters' verdicts and
 * the signed scorers' scores are still kept for the pod's key (residual filters, above). Counts of a selector that
 * requires a label value are kept from the placements carrying that label alone. Incoming pods without
 * such terms are unaffected unless existing pods' anti-affinity can refuse them; a plugin that must check existing
 * pods' terms signs with the version of those terms' counts too.
 */
package io.basalt.search;
