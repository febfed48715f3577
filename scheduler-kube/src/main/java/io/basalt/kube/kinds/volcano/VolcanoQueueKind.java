package io.basalt.kube.kinds.volcano;

import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;

/** Volcano's cluster-scoped {@code scheduling.volcano.sh/v1beta1} Queue. */
public final class VolcanoQueueKind extends KindAdapter<V1beta1Queue> {
  public VolcanoQueueKind() {
    super(V1beta1Queue.GROUP, V1beta1Queue.VERSION, V1beta1Queue.KIND, V1beta1Queue.PLURAL, false,
        V1beta1Queue.class, V1beta1QueueList.class);
  }

  @Override
  public void put(V1beta1Queue queue, Records out) {
    out.queue(VolcanoConversion.toQueue(queue));
  }

  @Override
  public void remove(V1beta1Queue queue, String key, Records.Removals out) {
    out.queueGone(key);
  }

  @Override
  public String project() {
    return "Volcano";
  }
}
