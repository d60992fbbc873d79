import { LIVE_PLAYERS_MAX } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { App, Segmented } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { createLivePlayer, releaseAllLive, releaseLive, type LiveDevice } from './liveSource';
import { LiveView } from './LiveView';
import { SPLITS, splitFor, splitGrid, WallModel, type Split, type WallDeps, type WallTile } from './wallModel';
import './video.css';

/** Drag-and-drop type of a device (the device tree sets it, a tile takes it): JSON LiveDevice. */
export const DEVICE_DRAG_TYPE = 'application/x-bwc-device';

export function readDraggedDevice(event: DragEvent): LiveDevice | null {
  try {
    const parsed = JSON.parse(event.dataTransfer.getData(DEVICE_DRAG_TYPE)) as Partial<LiveDevice>;
    return typeof parsed.id === 'number' && typeof parsed.name === 'string' ? (parsed as LiveDevice) : null;
  } catch {
    return null;
  }
}

const PLAY_CONFIG_KEY = ['video', 'playConfig'] as const;

export interface VideoWallHandle {
  model: WallModel;
  /** Opens the device in tile `at`, the selected tile or the first free one; says why when it cannot. */
  open: (device: LiveDevice, at?: number) => boolean;
}

/**
 * A wall's tiles and how to open a device on it. The split starts at the configured number of
 * pictures (play_get video_live_num). Leaving the page closes every player of the wall.
 */
export function useVideoWall(deps?: Partial<WallDeps>): VideoWallHandle {
  const { t } = useTranslation('video');
  const { message } = App.useApp();
  const depsRef = useRef(deps);
  const model = useMemo(
    () =>
      new WallModel({
        createPlayer: depsRef.current?.createPlayer ?? createLivePlayer,
        releaseLive: depsRef.current?.releaseLive ?? releaseLive,
        releaseAll: depsRef.current?.releaseAll ?? releaseAllLive,
      }),
    [],
  );
  const config = useQuery({
    queryKey: PLAY_CONFIG_KEY,
    queryFn: ({ signal }) => call('playGet', undefined, { signal }),
  });
  const configured = useRef(false);
  useEffect(() => {
    if (!config.data || configured.current) return;
    configured.current = true;
    model.setSplit(splitFor(config.data.video_live_num));
  }, [config.data, model]);

  useEffect(() => {
    // the console is going away: the server may stop every stream it held for it
    const onLeave = () => releaseAllLive();
    window.addEventListener('pagehide', onLeave);
    return () => {
      window.removeEventListener('pagehide', onLeave);
      model.dispose();
    };
  }, [model]);

  const open = useCallback(
    (device: LiveDevice, at?: number) => {
      const result = model.open(device, at);
      if (result.kind === 'limit') void message.warning(t('wall.limit', { max: LIVE_PLAYERS_MAX }));
      else if (result.kind === 'full') void message.warning(t('wall.full'));
      else if (result.kind === 'already') void message.info(t('wall.alreadyOpen', { name: device.name }));
      return result.kind === 'opened' || result.kind === 'already';
    },
    [model, message, t],
  );
  return useMemo(() => ({ model, open }), [model, open]);
}

interface TileProps {
  index: number;
  tile: WallTile | null;
  selected: boolean;
  big: boolean;
  onSelect: (index: number) => void;
  onClose: (index: number) => void;
  onDropDevice: (device: LiveDevice, index: number) => void;
}

function Tile({ index, tile, selected, big, onSelect, onClose, onDropDevice }: TileProps) {
  const { t } = useTranslation('video');
  const label = tile
    ? t('tile.labelDevice', { index: index + 1, name: tile.device.name })
    : t('tile.label', { index: index + 1 });
  const className = ['bwc-wall-tile', selected && 'bwc-wall-tile-selected', big && 'bwc-wall-tile-big']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={className}
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-pressed={selected}
      data-testid="wall-tile"
      data-index={index}
      data-device={tile?.device.id}
      onClick={() => onSelect(index)}
      onKeyDown={(event) => {
        if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          onSelect(index);
        }
      }}
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes(DEVICE_DRAG_TYPE)) {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }
      }}
      onDrop={(event) => {
        const device = readDraggedDevice(event);
        if (!device) return;
        event.preventDefault();
        onDropDevice(device, index);
      }}
    >
      {tile ? (
        <LiveView key={tile.key} device={tile.device} player={tile.player} onClose={() => onClose(index)} />
      ) : (
        <div className="bwc-wall-empty">
          <div>{t('tile.empty')}</div>
          <div className="bwc-wall-empty-hint">{t('tile.emptyHint')}</div>
        </div>
      )}
    </div>
  );
}

/** The split selector and the tiles of a wall (1, 4, 6, 9 or 16 pictures). */
export function VideoWall({ wall }: { wall: VideoWallHandle }) {
  const { t } = useTranslation('video');
  const { model, open } = wall;
  const { split, tiles, selected } = useSyncExternalStore(model.subscribe, model.getSnapshot);
  const { columns, big } = splitGrid(split);
  const playing = tiles.filter((tile) => tile !== null).length;
  const onSelect = useCallback((index: number) => model.select(index), [model]);
  const onClose = useCallback((index: number) => model.close(index), [model]);
  const onDrop = useCallback((device: LiveDevice, index: number) => void open(device, index), [open]);
  return (
    <section className="bwc-wall" aria-label={t('wall.label')} data-testid="video-wall" data-split={split}>
      <div className="bwc-wall-bar">
        <span>{t('wall.split')}</span>
        <Segmented<Split>
          size="small"
          value={split}
          onChange={(value) => model.setSplit(value)}
          options={SPLITS.map((value) => ({ value, label: t('wall.splitOption', { count: value }) }))}
          data-testid="wall-split"
        />
        <span className="bwc-wall-count" data-testid="wall-count">
          {t('wall.playing', { count: playing, max: LIVE_PLAYERS_MAX })}
        </span>
      </div>
      <div
        className="bwc-wall-grid"
        style={{ gridTemplateColumns: `repeat(${columns}, 1fr)`, gridTemplateRows: `repeat(${columns}, 1fr)` }}
      >
        {tiles.map((tile, index) => (
          <Tile
            key={index}
            index={index}
            tile={tile}
            selected={selected === index}
            big={big && index === 0}
            onSelect={onSelect}
            onClose={onClose}
            onDropDevice={onDrop}
          />
        ))}
      </div>
    </section>
  );
}
