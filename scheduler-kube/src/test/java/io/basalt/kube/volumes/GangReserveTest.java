package io.basalt.kube.volumes;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.prebind.ApiReply;
import org.junit.jupiter.api.Test;

/** The gang's dry run: which refusals foretell the binding's, and which only refuse the dry run itself. */
class GangReserveTest {
  @Test
  void aWebhookThatCannotDryRunDoesNotFailTheGangButARefusalDoes() {
    assertTrue(GangReserve.dryRunRefused(new ApiReply(400,
        "admission webhook \"audit.example.com\" does not support dry run")));
    assertFalse(GangReserve.dryRunRefused(new ApiReply(403, "admission webhook \"deny.example.com\" denied the "
        + "request: does not support dry run")), "a denial is a denial");
    assertFalse(GangReserve.dryRunRefused(new ApiReply(409, "pod train-7 is already assigned to node \"a\"")));
    assertFalse(GangReserve.dryRunRefused(new ApiReply(400, "the name of the object does not match")));
  }
}
