import { MenuId } from '@bwc/protocol';
import { Empty, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { pushChannel, usePush, usePushReconnect } from '../../../realtime/session/pushChannel';
import { usePermission } from '../../../app/session/Permission';
import { ImageZoom } from '../../../components/image-zoom';
import { formatTime } from '../../../format/time';
import { useMapSetup } from '../../../map/mapSetup';
import { pictureUrl } from '../history/historyQuery';
import { FACE_LIST_MAX, bestMatch, mergeSnapshot, prependPicture, type FacePicture } from './faceList';
import './face.css';

/** Width of the emergency screen's right column. */
export const FACE_COLUMN_WIDTH = 260;

/**
 * The emergency screen's right column (spec part 2 section 2.2): face-alarm pictures, shown only
 * when the map config's alerm_face flag is on and the user has view on 10095. The list is read
 * from alarm_pic, pushed face_data pictures are prepended; after a reconnect it is read again.
 */
export function FaceAlarmColumn() {
  const canView = usePermission(MenuId.FACE_ALARM, 'view');
  const setup = useMapSetup();
  const on = canView && setup.data?.config.alerm_face === 1;
  return on ? <FaceAlarmList /> : null;
}

function FaceAlarmList() {
  const { t } = useTranslation('alarm');
  const [list, setList] = useState<FacePicture[]>([]);
  const [loading, setLoading] = useState(true);
  const [zoom, setZoom] = useState<string | null>(null);
  /** pushes that arrived while a snapshot is loading (null: no snapshot under way) */
  const pending = useRef<FacePicture[] | null>(null);
  const seq = useRef(0);

  const load = async () => {
    const mine = ++seq.current;
    pending.current = [];
    setLoading(true);
    try {
      const answer = await call('alarmPic', { limit: FACE_LIST_MAX });
      if (mine !== seq.current) return;
      const snapshot = answer.alarm_pic.map((p) => ({ ...p, web_root: answer.web_root }));
      setList(mergeSnapshot(pending.current ?? [], snapshot));
    } catch {
      // the http layer has shown the error; pushes still arrive
    } finally {
      if (mine === seq.current) {
        pending.current = null;
        setLoading(false);
      }
    }
  };
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    void loadRef.current();
    return () => {
      seq.current += 1;
    };
  }, []);
  usePushReconnect(() => void loadRef.current());
  // a fresh page reads the list before its socket has logged in: read it again once it has, so
  // that nothing posted in between is missing
  useEffect(() => {
    if (pushChannel.state === 'open') return;
    const off = pushChannel.onState(() => {
      if (pushChannel.state !== 'open') return;
      off();
      void loadRef.current();
    });
    return off;
  }, []);
  usePush('face_data', (message) => {
    const picture: FacePicture = { ...message.data, web_root: message.web_root };
    pending.current?.unshift(picture);
    setList((old) => prependPicture(old, picture));
  });

  return (
    <aside className="bwc-face-column" data-testid="face-alarm-column">
      <div className="bwc-face-column-title">
        {t('face.title')} <Tag>{list.length}</Tag>
      </div>
      <div className="bwc-face-column-list">
        {loading && list.length === 0 ? (
          <Spin className="bwc-face-column-loading" />
        ) : list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('face.empty')} />
        ) : (
          list.map((p) => {
            const best = bestMatch(p);
            const scene = pictureUrl(p.imgfile_small || p.imgfile, p.web_root);
            return (
              <div className="bwc-face-card" key={p.id} data-testid="face-alarm-card" data-id={p.id}>
                <div className="bwc-face-card-pictures">
                  <img
                    src={scene}
                    alt={t('detail.scene')}
                    onClick={() => setZoom(pictureUrl(p.imgfile_big || p.imgfile, p.web_root))}
                  />
                  {best?.face_image_uri ? (
                    <img
                      src={pictureUrl(best.face_image_uri, p.web_root)}
                      alt={t('detail.libraryFace', { name: best.name })}
                      onClick={() => setZoom(pictureUrl(best.face_image_uri, p.web_root))}
                    />
                  ) : (
                    <div className="bwc-face-card-noface">{t('detail.noLibraryFace')}</div>
                  )}
                </div>
                <div className="bwc-face-card-text">
                  <Typography.Text strong ellipsis>
                    {best ? best.name || best.comparison : t('face.noMatch')}
                  </Typography.Text>
                  {best && (
                    <Tag color={best.similarity >= 80 ? 'red' : 'orange'} data-testid="face-alarm-similarity">
                      {t('face.similarity', { value: `${Math.round(best.similarity * 10) / 10}%` })}
                    </Tag>
                  )}
                  <div className="bwc-face-card-meta">{p.hostname}</div>
                  <div className="bwc-face-card-meta">{formatTime(p.shottime)}</div>
                </div>
              </div>
            );
          })
        )}
      </div>
      <ImageZoom open={zoom !== null} src={zoom ?? ''} title={t('face.title')} onClose={() => setZoom(null)} />
    </aside>
  );
}
