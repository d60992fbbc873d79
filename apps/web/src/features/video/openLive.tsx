import { LIVE_PLAYERS_MAX } from '@bwc/protocol';
import { Modal } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { i18next } from '../../i18n';
import { gbWallDeps, isGbLiveDevice } from './gb/gbLive';
import { createLivePlayer, releaseLive, type LiveDevice } from './liveSource';
import { LiveView } from './LiveView';
import type { LivePlayer } from './player/LivePlayer';
import { claimPlayerSlot } from './playerSlots';
import './video.css';

interface FloatingPlayer {
  device: LiveDevice;
  player: LivePlayer;
  release: () => void;
}

/**
 * Floating live players for screens without a wall (the emergency screen's info window, the device
 * dialog, the bell's live action): `openLive(device)` from anywhere, `<LiveDialogHost />` mounted
 * once to show them. They count towards LIVE_PLAYERS_MAX with the wall's tiles.
 */
let open: readonly FloatingPlayer[] = [];
const listeners = new Set<() => void>();

function set(next: readonly FloatingPlayer[]): void {
  open = next;
  for (const listener of [...listeners]) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const snapshot = () => open;

/** Opens the device's live view in a floating player; false (and says why) at the player limit. */
export function openLive(device: LiveDevice): boolean {
  if (open.some((entry) => entry.device.id === device.id)) return true;
  const release = claimPlayerSlot();
  if (!release) {
    notify.warning(i18next.t('video:wall.limit', { max: LIVE_PLAYERS_MAX }));
    return false;
  }
  // a GB channel plays through its GB play path (the GB map's markers)
  const player = isGbLiveDevice(device) ? gbWallDeps.createPlayer!(device) : createLivePlayer(device);
  set([...open, { device, player, release }]);
  return true;
}

/** Floating players open now that an SOS opened (the map config's getvideo_num caps them). */
export function openSosLives(): number {
  return open.filter((entry) => entry.device.sos?.isSos).length;
}

/** Closes the device's floating player (e.g. its device went offline). */
export function closeLive(deviceId: number): void {
  const entry = open.find((e) => e.device.id === deviceId);
  if (!entry) return;
  if (!isGbLiveDevice(entry.device)) releaseLive(entry.player, entry.device);
  entry.player.destroy();
  entry.release();
  set(open.filter((e) => e !== entry));
}

/** The floating players; mount once (e.g. in the shell). */
export function LiveDialogHost() {
  const { t } = useTranslation('video');
  const entries = useSyncExternalStore(subscribe, snapshot);
  return (
    <>
      {entries.map((entry, index) => (
        <Modal
          key={entry.device.id}
          open
          mask={false}
          maskClosable={false}
          footer={null}
          width={640}
          // each next one a little lower and to the right, so that none hides another entirely
          style={{ top: 80 + index * 32, left: index * 32 }}
          wrapClassName="bwc-live-dialog-wrap"
          className="bwc-live-dialog"
          title={t('dialog.title', { name: entry.device.name })}
          onCancel={() => closeLive(entry.device.id)}
          data-testid="live-dialog"
        >
          <LiveView device={entry.device} player={entry.player} onClose={() => closeLive(entry.device.id)} />
        </Modal>
      ))}
    </>
  );
}
