import { SoundOutlined } from '@ant-design/icons';
import { MenuId, type DevicePoint } from '@bwc/protocol';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../app/session/Permission';
import { openTalk } from '../../talk/openTalk';
import type { useDeviceActions } from '../deviceActions';

interface Props {
  /** the devices of the drawn shape */
  devices: DevicePoint[];
  actions: Pick<ReturnType<typeof useDeviceActions>, 'temporaryGroup'>;
  /** the group is made and its talk panel asked to open */
  onStarted: (tgid: number) => void;
}

/**
 * Voice broadcast (spec part 2 section 2.2, map tool): the devices of the drawn shape become a
 * temporary group by the map's own temporary-group action (devices without a cluster number are
 * named and left out, or nothing is made; section 5), and the group's talk panel opens asking for
 * the floor at once.
 */
export function BroadcastButton({ devices, actions, onStarted }: Props) {
  const { t } = useTranslation('dispatch');
  // the emergency screen's own right to make groups, as its temporary-group button
  const allowed = usePermission(MenuId.EMERGENCY, 'add');
  const [busy, setBusy] = useState(false);
  if (!allowed) return null;
  const start = async () => {
    setBusy(true);
    try {
      const made = await actions.temporaryGroup(devices);
      if (made?.groupid == null) return;
      openTalk({ tgid: made.groupid, start: true });
      onStarted(made.groupid);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      type="primary"
      icon={<SoundOutlined />}
      loading={busy}
      disabled={devices.length === 0}
      onClick={() => void start()}
      data-testid="broadcast-start"
    >
      {t('broadcast.start')}
    </Button>
  );
}
