package io.basalt.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.kube.prebind.PreBindSteps;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestPods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulator's binder runs the pre-bind steps too, and a bind they cannot finish is undone and not made. */
class InMemoryBinderTest {
  /** Writes a node annotation, or refuses. */
  private static PreBindStep write(String key, boolean refuse) {
    return new PreBindStep() {
      @Override
      public boolean writesBefore(SessionResult.Binding b, Map<String, String> annotations) {
        return true;
      }

      @Override
      public Result preBind(SessionResult.Binding b, ApiObjects api) {
        if (refuse) {
          return new Result(State.FAILED, "refused", new ApiReply(403, ""));
        }
        ApiObjects.Meta n = api.read(ApiObjects.Kind.NODE, null, b.node());
        return api.annotate(ApiObjects.Kind.NODE, null, b.node(), key, "x", n.resourceVersion()).ok() ? Result.DONE
            : new Result(State.FAILED, "conflict", new ApiReply(409, ""));
      }

      @Override
      public boolean unreserve(SessionResult.Binding b, ApiObjects api) {
        ApiObjects.Meta n = api.read(ApiObjects.Kind.NODE, null, b.node());
        return api.annotate(ApiObjects.Kind.NODE, null, b.node(), key, null, n.resourceVersion()).ok();
      }
    };
  }

  @Test
  void aStepThatCannotFinishFailsTheBindAndWhatWasWrittenIsUndone() {
    InMemoryBinder binder = new InMemoryBinder(() -> Instant.EPOCH,
        new PreBindSteps(List.of(write("a", false), write("b", true))));
    List<String> outcomes = new ArrayList<>();
    BindOutcomes record = new BindOutcomes() {
      @Override
      public void bound(String uid) {
        outcomes.add("bound");
      }

      @Override
      public void notBound(String uid, boolean hold) {
        outcomes.add("not bound, hold " + hold);
      }

      @Override
      public void evicted(String uid) {}

      @Override
      public void notEvicted(String uid) {}
    };

    binder.bind(List.of(new SessionResult.Binding(TestPods.pod("ml/p").build(), "n1", Map.of())), record);

    assertEquals(List.of("not bound, hold true"), outcomes);
    assertEquals(List.of(), binder.bound());
    assertTrue(binder.objects().isEmpty(), "the first step's write undone");
  }
}
