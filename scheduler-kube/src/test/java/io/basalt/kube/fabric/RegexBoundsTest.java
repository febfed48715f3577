package io.basalt.kube.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.fabric.FabricBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HyperNodePatternFuzzTest seed 35: {@code (a{1000}){1000}} took RE2/J 4 s to compile, where Go refuses it. */
class RegexBoundsTest {
  @Test
  void nestedCountedRepetitionsMultiplyAsGoCountsThem() {
    assertEquals(1_000_000, RegexBounds.nestedRepeat("(a{1000}){1000}"));
    assertEquals(1000, RegexBounds.nestedRepeat("a{1000}b{1000}"), "side by side they do not multiply");
    assertEquals(60, RegexBounds.nestedRepeat("^(x(y{3,5}|z{2}){12,})$"));
    assertEquals(1, RegexBounds.nestedRepeat("[{]{\\{1000}\\Q{1000}\\E[[:alpha:]{]"), "literal braces count nothing");
    assertEquals(1, RegexBounds.nestedRepeat("a{,5}x{y}"), "not repetitions in Go either");
    assertNull(RegexBounds.problem("^s[0-9]{1,3}-(gpu|cpu){2}$"));
    assertEquals("counted repetitions nest past 1000 in all", RegexBounds.problem("((a{10}){10}){11}"));
    assertEquals("longer than 1024 characters", RegexBounds.problem("a".repeat(1025)));
  }

  @Test
  void aCostlyPatternIsOneProblemNamingTheField() {
    FabricBuilder.Result r = HyperNodeReader.read(List.of(HyperNodeReaderTest.hn("s", 1, "["
        + HyperNodeReaderTest.member("{\"regexMatch\":{\"pattern\":\"(a{1000}){1000}\"}}") + "]")),
        List.of(Fixtures.node("a1")));
    assertEquals("HyperNode s: spec.members[0].selector.regexMatch.pattern: counted repetitions nest past 1000 in "
        + "all: '(a{1000}){1000}'", r.problems().get(0));
  }
}
