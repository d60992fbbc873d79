import { deviceKeyField, isGbMode, type DeviceKeyField } from './gbMode';
import { useUserContext } from './queries';

export interface GbMode {
  /** GB mode on (false while the context loads) */
  gb: boolean;
  deviceKey: DeviceKeyField;
  isPending: boolean;
}

/** The GB mode flag of the signed-in user's context, with the device key field it implies. */
export function useGbMode(): GbMode {
  const { data, isPending } = useUserContext();
  const gb = isGbMode(data);
  return { gb, deviceKey: deviceKeyField(gb), isPending };
}
