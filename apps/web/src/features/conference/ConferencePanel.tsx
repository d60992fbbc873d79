import { AudioMutedOutlined, AudioOutlined, ShareAltOutlined, StopOutlined } from '@ant-design/icons';
import { MenuId, type LivePlay, type StartConfNotice } from '@bwc/protocol';
import { App, Button, Empty, Modal, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../app/session/Permission';
import { currentLanguage } from '../../i18n';
import { keysOf } from '../../i18n/keys';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { consoleSdk } from '../../realtime/sdk/groupLogin';
import { MicError } from '../talk/audio/TalkEngine';
import { LiveView } from '../video/LiveView';
import { requestPlay, type LiveDevice } from '../video/liveSource';
import { LivePlayer } from '../video/player/LivePlayer';
import { ConferenceAudio, type ConferenceAudioSdk } from './ConferenceAudio';
import { ConferenceSession, type ConferenceTile } from './conferenceSession';
import './conference.css';

const ENDED_KEYS = keysOf('conference', {
  stopped: 'ended.stopped',
  demander_left: 'ended.demander_left',
  group_deleted: 'ended.group_deleted',
});
const TILE_ERROR_KEYS = keysOf('conference', { offline: 'tile.offline', gateway: 'tile.gateway' });

type PanelSdk = Pick<RealtimeSdk, 'on' | 'request' | 'login'> & ConferenceAudioSdk;

/** The audio of the panel (a fake in tests). */
export type ConferenceAudioLike = Pick<ConferenceAudio, 'micOn' | 'startMic' | 'stopMic' | 'resume' | 'close'>;

interface Props {
  tgid: number;
  /** a conference another console started: the notice that told this console */
  join?: StartConfNotice;
  sdk?: PanelSdk;
  createAudio?: (sdk: ConferenceAudioSdk, tgid: number) => ConferenceAudioLike;
  onClose: () => void;
}

const defaultAudio = (sdk: ConferenceAudioSdk, tgid: number) => new ConferenceAudio(sdk, tgid);
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A player that plays the tile's paths first, and asks for fresh ones on a reconnect. */
function tilePlayer(tile: ConferenceTile): { player: LivePlayer; device: LiveDevice } {
  const device: LiveDevice = { id: tile.uid, name: tile.name, imei: tile.play?.imei };
  let first: LivePlay | null = tile.play ?? null;
  const player: LivePlayer = new LivePlayer({
    request: (signal) => {
      const play = first;
      first = null;
      return play && play.expires > Date.now() ? Promise.resolve(play) : requestPlay(device, player.play, signal);
    },
    lang: currentLanguage,
  });
  return { player, device };
}

/** One tile: the device's live picture, or why there is none. */
function Tile({ tile }: { tile: ConferenceTile }) {
  const { t } = useTranslation('conference');
  const [live, setLive] = useState<ReturnType<typeof tilePlayer> | null>(null);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!tile.play) return;
    const made = tilePlayer(tile);
    setLive(made);
    return () => made.player.destroy();
    // the same device keeps its player while its tile lives
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tile.uid, tile.play]);
  return (
    <div
      className={`bwc-conf-tile${tile.shared ? ' bwc-conf-tile-shared' : ''}`}
      data-testid="conf-tile"
      data-uid={tile.uid}
      data-shared={tile.shared ? 1 : 0}
    >
      {tile.shared && (
        <Tag color="gold" className="bwc-conf-shared-tag" data-testid="conf-shared">
          {t('panel.shared')}
        </Tag>
      )}
      {tile.error ? (
        <div className="bwc-conf-tile-error">{t(TILE_ERROR_KEYS[tile.error], { name: tile.name })}</div>
      ) : live && !hidden ? (
        <LiveView device={live.device} player={live.player} onClose={() => setHidden(true)} />
      ) : (
        <div className="bwc-conf-tile-error">{tile.name}</div>
      )}
    </div>
  );
}

/**
 * The video conference of a group (issue 14 section 5): started here or joined from the
 * notice; a tile per member terminal (its live video), the shared one first and marked; the
 * microphone (full duplex, everyone hears everyone); share a terminal's video and stop sharing;
 * end it (the demander, or a console with edit; everyone else leaves the panel). It closes by
 * itself when the conference ends, saying why.
 */
export function ConferencePanel({ tgid, join, sdk = consoleSdk, createAudio = defaultAudio, onClose }: Props) {
  const { t } = useTranslation(['conference', 'talk']);
  const { message, modal } = App.useApp();
  const me = sdk.login?.login_uid ?? 0;
  const mayEditDispatch = usePermission(MenuId.EMERGENCY, 'edit');
  const mayEditCluster = usePermission(MenuId.CLUSTER, 'edit');
  const [session] = useState(() => new ConferenceSession(sdk, tgid));
  const { view, ended } = useSyncExternalStore(session.subscribe, session.getState);
  const requested = useRef(false);
  const [audio, setAudio] = useState<ConferenceAudioLike | null>(null);
  const [micOn, setMicOn] = useState(false);
  const [pick, setPick] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const failed = (error: unknown) => void message.error(t('panel.failed', { reason: reasonOf(error) }));

  useEffect(() => {
    session.open();
    if (!requested.current) {
      requested.current = true;
      if (join) session.join(join);
      else
        session.start().catch((error: unknown) => {
          failed(error);
          onClose();
        });
    }
    return () => session.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  useEffect(() => {
    const engine = createAudio(sdk, tgid);
    setAudio(engine);
    // opened on a click: the output may start now
    engine.resume();
    return () => engine.close();
  }, [sdk, tgid, createAudio]);

  // ended by somebody else (or by this console's stop): say why and close
  useEffect(() => {
    if (!ended) return;
    if (ended.by !== me) void message.info(t(ENDED_KEYS[ended.reason]));
    onClose();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ended]);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };

  const toggleMic = async () => {
    if (!audio) return;
    if (audio.micOn) {
      audio.stopMic();
      setMicOn(false);
      return;
    }
    try {
      await audio.startMic();
      setMicOn(true);
    } catch (error) {
      if (error instanceof MicError) void message.error(t(error.key, { ns: 'talk', reason: error.reason }));
      else failed(error);
    }
  };

  const mayStop = view !== null && (view.demander === me || mayEditDispatch || mayEditCluster);
  const stop = () =>
    modal.confirm({
      content: t('panel.stopConfirm'),
      onOk: () => run(() => session.stop()),
    });

  const tiles = view ? [...view.tiles].sort((a, b) => Number(b.shared) - Number(a.shared)) : [];
  const shareable = (view?.tiles ?? []).filter((tile) => !tile.shared);

  return (
    <Modal
      open
      width="90vw"
      maskClosable={false}
      title={view ? t('panel.title', { name: view.tg_name }) : t('panel.starting')}
      onCancel={onClose}
      footer={null}
      className="bwc-conf-panel"
    >
      <div data-testid="conference-panel">
        <Space wrap className="bwc-conf-bar">
          {view && (
            <Typography.Text type="secondary" data-testid="conf-participants">
              {t('panel.participants', { count: view.participants.length })}
            </Typography.Text>
          )}
          <Button
            icon={micOn ? <AudioOutlined /> : <AudioMutedOutlined />}
            type={micOn ? 'primary' : 'default'}
            disabled={!view || !audio}
            onClick={() => void toggleMic()}
            data-testid="conf-mic"
          >
            {micOn ? t('panel.micOff') : t('panel.micOn')}
          </Button>
          <Select
            style={{ minWidth: 220 }}
            placeholder={t('panel.sharePick')}
            value={pick}
            onChange={setPick}
            options={shareable.map((tile) => ({ value: tile.uid, label: tile.name }))}
            disabled={!view}
            data-testid="conf-share-pick"
          />
          <Button
            icon={<ShareAltOutlined />}
            disabled={!view || pick === null || busy}
            onClick={() => void run(() => session.share(String(pick)).then(() => setPick(null)))}
            data-testid="conf-share"
          >
            {t('panel.share')}
          </Button>
          {view?.vsid && (
            <Button disabled={busy} onClick={() => void run(() => session.stopShare())} data-testid="conf-stop-share">
              {t('panel.stopShare')}
            </Button>
          )}
          {mayStop ? (
            <Button danger icon={<StopOutlined />} disabled={busy} onClick={stop} data-testid="conf-stop">
              {t('panel.stop')}
            </Button>
          ) : (
            <Button onClick={onClose} data-testid="conf-leave">
              {t('panel.leave')}
            </Button>
          )}
        </Space>
        {view && tiles.length === 0 && <Empty description={t('panel.noTiles')} />}
        <div className="bwc-conf-grid" data-count={tiles.length}>
          {tiles.map((tile) => (
            <Tile key={tile.uid} tile={tile} />
          ))}
        </div>
      </div>
    </Modal>
  );
}
