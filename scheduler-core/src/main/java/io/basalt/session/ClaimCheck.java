package io.basalt.session;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.dra.ClaimLedger;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import java.util.function.Function;

/**
 * The engine's DRA check, last in the filter chain and on whatever the tiers say (as {@link DeviceGuard} for GPUs): a
 * pod with {@code spec.resourceClaims} goes only where all its claims can be allocated, or are allocated already. Its
 * answer reads the claims the session allocated so far, so it signs nothing for such a pod (no equivalence cache, no
 * "no node fits" memo); a pod without claims passes everywhere, signs a constant and keeps every search shortcut.
 */
final class ClaimCheck implements PreparedFilter, PodSigner {
  /** What a pod without claims signs: the check passes it on every node. */
  private static final Object NO_CLAIMS = "no-claims";

  private final ClaimLedger claims;

  ClaimCheck(ClaimLedger claims) {
    this.claims = claims;
  }

  @Override
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    return check(claims, task, node);
  }

  @Override
  public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    if (!task.pod().constraints().hasResourceClaims()) {
      return null;
    }
    // The ledger hands the same reason object for nodes that fail alike: one FilterResult for them all.
    String[] lastWhy = new String[1];
    FilterResult[] last = new FilterResult[1];
    String queue = queueOf(task);
    return node -> {
      String why = claims.check(task.pod(), queue, node.node(), node.gpus());
      if (why == null) {
        return FilterResult.OK;
      }
      if (why != lastWhy[0]) {
        lastWhy[0] = why;
        last[0] = FilterResult.unfit("cannot allocate all claims (" + why + ")");
      }
      return last[0];
    };
  }

  @Override
  public Object sign(TaskInfo task) {
    return task.pod().constraints().hasResourceClaims() ? null : NO_CLAIMS;
  }

  /** OK, or "cannot allocate all claims (claim ns/name: request r: why)". */
  static FilterResult check(ClaimLedger claims, TaskInfo task, NodeInfo node) {
    if (!task.pod().constraints().hasResourceClaims()) {
      return FilterResult.OK;
    }
    String why = claims.check(task.pod(), queueOf(task), node.node(), node.gpus());
    return why == null ? FilterResult.OK : FilterResult.unfit("cannot allocate all claims (" + why + ")");
  }

  /** The queue a task's claims count against ({@link io.basalt.dra.DeviceQuota}), null outside a job. */
  static String queueOf(TaskInfo task) {
    return task.job() == null ? null : task.job().queue();
  }
}
