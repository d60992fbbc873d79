import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isTerminal,
  loadDeviceLevel,
  UnitTree,
  type LiveOnline,
  type TerminalDragStart,
} from '../../components/unit-tree';
import { usePush } from '../../realtime/session/pushChannel';
import { liveDeviceOfNode } from './liveSource';
import { DEVICE_DRAG_TYPE, VideoWall, type VideoWallHandle } from './VideoWall';
import './video.css';

/** Online states pushed since the tree was loaded (device_data), so terminals change without a reload. */
function usePushedOnline(): LiveOnline {
  const live = useMemo(() => {
    const states = new Map<number, boolean>();
    const listeners = new Set<() => void>();
    return {
      set(id: number, online: boolean) {
        states.set(id, online);
        for (const listener of [...listeners]) listener();
      },
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      online: (id: number) => states.get(id),
    };
  }, []);
  usePush('device_data', (message) => live.set(message.data.device_id, message.data.lineon === 1));
  return live;
}

const dragDevice: TerminalDragStart = (node, event) => {
  event.dataTransfer.setData(DEVICE_DRAG_TYPE, JSON.stringify(liveDeviceOfNode(node)));
  event.dataTransfer.effectAllowed = 'copy';
};

interface Props {
  title: string;
  testId: string;
  wall: VideoWallHandle;
  /** beside the title (e.g. what the patrol page adds) */
  extra?: ReactNode;
}

/**
 * A device tree with online counts (units count their online devices; terminals follow pushes)
 * beside a video wall: a click on a device opens it in the selected or the first free tile, a
 * drag puts it on the tile it is dropped on.
 */
export function VideoScreen({ title, testId, wall, extra }: Props) {
  const { t } = useTranslation('video');
  const live = usePushedOnline();
  return (
    <div className="bwc-video-page" data-testid={testId}>
      <aside className="bwc-video-side">
        <h2 className="bwc-video-side-title">{title}</h2>
        {extra}
        <div className="bwc-video-hint">{t('page.hint')}</div>
        <UnitTree
          loader={loadDeviceLevel}
          live={live}
          onTerminalDragStart={dragDevice}
          onSelect={(node) => {
            if (isTerminal(node)) wall.open(liveDeviceOfNode(node));
          }}
        />
      </aside>
      <main className="bwc-video-main">
        <VideoWall wall={wall} />
      </main>
    </div>
  );
}
