package io.basalt.app.cli;

import io.basalt.gpu.DeviceProtocol;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --device-protocol auto|hami|basalt} for {@code run} and {@code simulate}, so both accept the same words. */
public final class DeviceProtocolConverter implements ITypeConverter<DeviceProtocol> {
  @Override
  public DeviceProtocol convert(String value) {
    try {
      return new DeviceProtocol(DeviceProtocol.Mode.parse(value), Map.of());
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
