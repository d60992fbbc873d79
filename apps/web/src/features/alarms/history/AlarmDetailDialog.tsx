import type { Alarm, CompareResult } from '@bwc/protocol';
import { Descriptions, Empty, Modal, Progress, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AckTypeTag } from './ackType';
import { ImageZoom } from '../../../components/image-zoom';
import { formatTime } from '../../../format/time';
import { LevelTag } from './LevelTag';
import { pictureUrl } from './historyQuery';

interface Props {
  alarm: Alarm | null;
  gb: boolean;
  onClose: () => void;
}

/** Similarity as a percentage with one decimal at most (0..100 on the wire). */
export function similarityText(similarity: number): string {
  return `${Math.round(similarity * 10) / 10}%`;
}

/** Compare results, best match first. */
export function sortedResults(results: readonly CompareResult[]): CompareResult[] {
  return [...results].sort((a, b) => b.similarity - a.similarity);
}

/** Details of one alarm; face and plate alarms with their scene picture and compare results. */
export function AlarmDetailDialog({ alarm, gb, onClose }: Props) {
  const { t } = useTranslation('alarm');
  const [zoom, setZoom] = useState<string | null>(null);
  const picture = alarm?.picture ?? null;
  const position =
    alarm && alarm.lng !== null && alarm.lat !== null
      ? t('detail.position', { longitude: alarm.lng, latitude: alarm.lat })
      : t('detail.noPosition');

  return (
    <Modal open={alarm !== null} title={t('detail.title')} footer={null} onCancel={onClose} width={760} destroyOnHidden>
      {alarm && (
        <div data-testid="alarm-detail">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('column.time')}>{formatTime(alarm.alarm_time)}</Descriptions.Item>
            <Descriptions.Item label={t('column.type')}>{alarm.typeName_cur}</Descriptions.Item>
            <Descriptions.Item label={t('column.level')}>
              <LevelTag level={alarm.alerm_level} />
            </Descriptions.Item>
            <Descriptions.Item label={t('column.device')}>{alarm.hostNameCode}</Descriptions.Item>
            <Descriptions.Item label={gb ? t('column.gbbm') : t('column.hostbody')}>
              {gb ? alarm.gbbm : alarm.hostbody}
            </Descriptions.Item>
            <Descriptions.Item label={t('column.unit')}>{gb ? alarm.dname : alarm.unitname}</Descriptions.Item>
            <Descriptions.Item label={t('detail.positionLabel')} span={2}>
              {position}
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.message')} span={2}>
              {alarm.message || '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('column.read')}>
              {alarm.hasRead ? t('state.read') : t('state.unread')}
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.insertTime')}>{formatTime(alarm.insert_time)}</Descriptions.Item>
            <Descriptions.Item label={t('column.sure')} span={2}>
              {alarm.sure ? (
                <span data-testid="alarm-detail-sure">
                  {t('state.sureBy', { user: alarm.sure_user, time: formatTime(alarm.sure_time) })}
                  <AckTypeTag type={alarm.sure_type} />
                  {alarm.sure_note && <Typography.Text type="secondary"> — {alarm.sure_note}</Typography.Text>}
                </span>
              ) : (
                <Tag>{t('state.unsured')}</Tag>
              )}
            </Descriptions.Item>
          </Descriptions>
          {picture && (
            <section className="bwc-alarm-pictures" data-testid="alarm-pictures">
              <Typography.Title level={5}>{t('detail.pictures')}</Typography.Title>
              <div className="bwc-alarm-pictures-row">
                <figure className="bwc-alarm-scene">
                  <img
                    src={pictureUrl(picture.imgfile_big || picture.imgfile)}
                    alt={t('detail.scene')}
                    data-testid="alarm-scene-picture"
                    onClick={() => setZoom(pictureUrl(picture.imgfile_big || picture.imgfile))}
                  />
                  <figcaption>
                    {t('detail.shot', { time: formatTime(picture.shottime), name: picture.hostname })}
                  </figcaption>
                </figure>
                <div className="bwc-alarm-compare" data-testid="alarm-compare">
                  {picture.compare_result.length === 0 ? (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noMatch')} />
                  ) : (
                    sortedResults(picture.compare_result).map((r, i) => (
                      <div
                        className="bwc-alarm-compare-item"
                        key={`${r.comparison}-${i}`}
                        data-testid="alarm-compare-item"
                      >
                        {r.face_image_uri ? (
                          <img
                            src={pictureUrl(r.face_image_uri)}
                            alt={t('detail.libraryFace', { name: r.name })}
                            onClick={() => setZoom(pictureUrl(r.face_image_uri))}
                          />
                        ) : (
                          <div className="bwc-alarm-compare-noface">{t('detail.noLibraryFace')}</div>
                        )}
                        <div className="bwc-alarm-compare-text">
                          <div className="bwc-alarm-compare-name">{r.name || '—'}</div>
                          <div>{t('detail.comparison', { value: r.comparison || '—' })}</div>
                          <div>
                            {t('detail.similarity')}{' '}
                            <strong data-testid="alarm-similarity">{similarityText(r.similarity)}</strong>
                          </div>
                          <Progress
                            percent={r.similarity}
                            showInfo={false}
                            size="small"
                            strokeColor={r.similarity >= 80 ? '#e02424' : '#fa8c16'}
                          />
                        </div>
                      </div>
                    ))
                  )}
                </div>
              </div>
            </section>
          )}
        </div>
      )}
      <ImageZoom open={zoom !== null} src={zoom ?? ''} title={t('detail.pictures')} onClose={() => setZoom(null)} />
    </Modal>
  );
}
