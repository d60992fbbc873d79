import { GROUP_TEMP_TTL_H, ResultCode, type DevicePoint, type GroupFromDevicesAnswer } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { nameWithCode } from '../../map/points';
import { GROUPS_QUERY_KEY } from './GroupTab';

export type RemoteAction = 'remote_kill' | 'remote_wakeon';

/** The answer's code compared as the string '200', as the spec says the console does. */
export function remoteSucceeded(code: number | string): boolean {
  return String(code) === String(ResultCode.OK);
}

/** Devices of a selection split by whether they have a cluster number (jq_hostcode). */
export function splitByClusterCode<T extends Pick<DevicePoint, 'jq_hostcode'>>(
  devices: readonly T[],
): { withCode: T[]; without: T[] } {
  const withCode: T[] = [];
  const without: T[] = [];
  for (const device of devices) (device.jq_hostcode.trim() ? withCode : without).push(device);
  return { withCode, without };
}

/**
 * Remote commands and the temporary group, with their confirm dialogs. `onChanged(ids)` is
 * called after a command succeeded so the map refreshes those devices at once.
 */
export function useDeviceActions(onChanged: (ids: number[]) => void) {
  const { t } = useTranslation('dispatch');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();

  const restart = (point: DevicePoint) =>
    modal.confirm({
      title: t('remote.restartTitle'),
      content: t('remote.restartConfirm', { name: nameWithCode(point) }),
      onOk: async () => {
        await call('gisSendRestart', { imei: point.imei, hostbody: point.did }, { success: true });
      },
    });

  const remote = (point: DevicePoint, action: RemoteAction) =>
    modal.confirm({
      title: t(action === 'remote_kill' ? 'remote.killTitle' : 'remote.wakeTitle'),
      content: t(action === 'remote_kill' ? 'remote.killConfirm' : 'remote.wakeConfirm', { name: nameWithCode(point) }),
      okButtonProps: { danger: action === 'remote_kill' },
      onOk: async () => {
        await call('gisRemoteKill', { imei: point.imei, action }, { success: true });
        onChanged([point.id]);
      },
    });

  /**
   * Temporary group from a selection (spec part 2 section 5); answers the server's answer when a
   * group was made, null when nothing was (none with a cluster number, not confirmed, refused).
   */
  const temporaryGroup = async (devices: DevicePoint[]): Promise<GroupFromDevicesAnswer | null> => {
    const { withCode, without } = splitByClusterCode(devices);
    const names = without.map(nameWithCode).join(t('list.separator'));
    if (withCode.length === 0) {
      message.warning(t('group.noneHasCode', { names }));
      return null;
    }
    if (without.length > 0) {
      const go = await modal.confirm({
        title: t('group.missingTitle'),
        content: t('group.missingConfirm', { names }),
      });
      if (!go) return null;
    }
    let answer: GroupFromDevicesAnswer;
    try {
      answer = await call('groupFromDevices', {
        ids: devices.map((d) => d.id),
        confirm: 1,
      });
    } catch {
      // refused (e.g. a selected device was deleted meanwhile): the server's message is already shown
      return null;
    }
    if (answer.groupid === null) return null;
    message.success(t('group.created', { name: answer.tg_name, hours: GROUP_TEMP_TTL_H }));
    void queryClient.invalidateQueries({ queryKey: GROUPS_QUERY_KEY });
    return answer;
  };

  return { restart, remote, temporaryGroup };
}
