package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.Map;

/** Small builders shared by the fake server's tests. */
final class Fixtures {
  private Fixtures() {
  }

  static V1Pod pod(String namespace, String name) {
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(name).namespace(namespace).labels(Map.of("app", "train")))
        .spec(new V1PodSpec().schedulerName("basalt").addContainersItem(new V1Container().name("main")
            .image("busybox:1.36").resources(new V1ResourceRequirements()
                .requests(Map.of("cpu", Quantity.fromString("1"))))));
  }

  /** The Status body of a failed call. */
  static JsonObject status(ApiException e) {
    return Json.parseObject(e.getResponseBody());
  }
}
