package io.basalt.kube.kinds.core;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.basalt.kube.kinds.Records;
import io.basalt.model.Pod;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import org.junit.jupiter.api.Test;

class PodKindTest {
  private static V1Pod pod(String scheduler, String node) {
    return new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("t").uid("u"))
        .spec(new V1PodSpec().schedulerName(scheduler).nodeName(node).addContainersItem(new V1Container().name("c")));
  }

  /** Hardening II: other schedulers' pending pods with made-up resource names filled the name table. */
  @Test
  void anotherSchedulersPendingPodIsNotEvenConverted() {
    Records out = mock(Records.class);
    when(out.wantsPending("basalt-scheduler")).thenReturn(true);
    PodKind kind = new PodKind();

    kind.put(pod("default-scheduler", null), out);
    kind.put(pod(null, null), out);
    verify(out, never()).pod(any(Pod.class));

    kind.put(pod("default-scheduler", "n1"), out);
    kind.put(pod("basalt-scheduler", null), out);
    verify(out, times(2)).pod(any(Pod.class));
  }

  /** A pending pod another scheduler nominated to a node holds room there: it is taken, and forgotten once it is not. */
  @Test
  void anotherSchedulersNominatedPendingPodIsConverted() {
    Records out = mock(Records.class);
    PodKind kind = new PodKind();
    V1Pod nominated = pod("default-scheduler", null).status(new V1PodStatus().nominatedNodeName("n1"));
    kind.put(nominated, out);
    verify(out).pod(any(Pod.class));
    kind.put(pod("default-scheduler", null), out);
    verify(out).pendingSkipped("t/p", "u");
    verify(out, times(1)).pod(any(Pod.class));
  }
}
