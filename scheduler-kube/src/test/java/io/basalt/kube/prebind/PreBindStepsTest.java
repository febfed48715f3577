package io.basalt.kube.prebind;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.session.SessionResult;
import io.basalt.testing.TestPods;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Steps run in order, stop at one that waits or fails, and are undone last first, each once. */
class PreBindStepsTest {
  /** Annotations per object name, no versions: enough to see what was written and undone. */
  static final class Objects implements ApiObjects {
    final Map<String, String> written = new HashMap<>();
    final List<String> log = new ArrayList<>();

    @Override
    public Meta read(Kind kind, String namespace, String name) {
      return new Meta(Map.copyOf(written), "1", new ApiReply(200, ""));
    }

    @Override
    public ApiReply annotate(Kind kind, String namespace, String name, String key, String value, String version) {
      log.add((value == null ? "remove " : "set ") + key);
      if (value == null) {
        written.remove(key);
      } else {
        written.put(key, value);
      }
      return new ApiReply(200, "");
    }
  }

  /** Writes {@code key} on the node, or answers {@code answer} first {@code times} times. */
  static final class Writes implements PreBindStep {
    final String key;
    final State answer;
    int times;

    Writes(String key, State answer, int times) {
      this.key = key;
      this.answer = answer;
      this.times = times;
    }

    @Override
    public boolean writesBefore(SessionResult.Binding binding, Map<String, String> annotations) {
      return true;
    }

    @Override
    public Result preBind(SessionResult.Binding binding, ApiObjects api) {
      if (times-- > 0) {
        return new Result(answer, key + " " + answer, new ApiReply(answer == State.WAIT ? 409 : 500, ""));
      }
      api.annotate(ApiObjects.Kind.NODE, null, binding.node(), key, "x", "1");
      return Result.DONE;
    }

    @Override
    public boolean unreserve(SessionResult.Binding binding, ApiObjects api) {
      return api.annotate(ApiObjects.Kind.NODE, null, binding.node(), key, null, "1").ok();
    }
  }

  private final SessionResult.Binding binding =
      new SessionResult.Binding(TestPods.pod("ml/p").build(), "n1", Map.of());

  @Test
  void aFailedStepUndoesTheOnesBeforeItLastFirst() {
    Objects api = new Objects();
    PreBindSteps.Run run = new PreBindSteps(List.of(new Writes("a", PreBindStep.State.DONE, 0),
        new Writes("b", PreBindStep.State.DONE, 0), new Writes("c", PreBindStep.State.FAILED, 1))).start(binding);

    assertEquals(PreBindStep.State.FAILED, run.preBind(Map.of(), api).state());
    assertEquals(Map.of("a", "x", "b", "x"), api.written);
    assertEquals(List.of(), run.unreserve(api));

    assertEquals(Map.of(), api.written, "nothing left of the reservation");
    assertEquals(List.of("set a", "set b", "remove b", "remove a"), api.log);
  }

  @Test
  void aWaitingStepIsAskedAgainWithoutRedoingTheOnesDone() {
    Objects api = new Objects();
    PreBindSteps.Run run = new PreBindSteps(List.of(new Writes("a", PreBindStep.State.DONE, 0),
        new Writes("lock", PreBindStep.State.WAIT, 2))).start(binding);

    assertEquals(PreBindStep.State.WAIT, run.preBind(Map.of(), api).state());
    assertEquals(PreBindStep.State.WAIT, run.preBind(Map.of(), api).state());
    assertEquals(PreBindStep.State.DONE, run.preBind(Map.of(), api).state());

    assertEquals(List.of("set a", "set lock"), api.log);
    run.unreserve(api); // the bind failed after all
    assertEquals(Map.of(), api.written);
  }
}
