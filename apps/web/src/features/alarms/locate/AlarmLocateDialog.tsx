import { ALARM_MAP_SIZE } from '@bwc/protocol';
import { Modal, Result, Spin } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPage } from '../../../app/routing/lazyPage';
import { useMapSetup } from '../../../map/mapSetup';
import { markerPosition, type Coordinate } from './position';
import './locate.css';

const AlarmLocateMap = lazyPage(() => import('./AlarmLocateMap'), 'AlarmLocateMap');

export interface AlarmLocateDialogProps {
  open: boolean;
  /** WGS-84 longitude of the alarm (missing: 'marker position not found') */
  lng: Coordinate;
  /** WGS-84 latitude of the alarm */
  lat: Coordinate;
  /** shown under the marker (e.g. hostNameCode of the alarm) */
  title?: string;
  onClose: () => void;
}

/**
 * The 'locate' map dialog of an alarm (spec part 1 section 2): a 750x300 map centred on the alarm,
 * zoom 12, a 65x65 marker; 'marker position not found' when lng or lat is missing. Coordinates
 * are WGS-84 and shifted for a GCJ-02 base map like every layer of `map/`.
 */
export function AlarmLocateDialog({ open, lng, lat, title, onClose }: AlarmLocateDialogProps) {
  const { t } = useTranslation('alarm');
  const position = markerPosition(lng, lat);
  const [styleError, setStyleError] = useState<string | null>(null);
  const setup = useMapSetup({ enabled: open && position !== null });

  let body: React.ReactNode;
  if (!position) {
    body = (
      <div data-testid="alarm-locate-not-found">
        <Result status="warning" title={t('locate.notFound')} />
      </div>
    );
  } else if (styleError || setup.isError) {
    body = (
      <div data-testid="alarm-locate-map-failed">
        <Result status="warning" title={t('locate.mapFailed')} subTitle={styleError ?? undefined} />
      </div>
    );
  } else if (!setup.data) {
    body = <Spin className="bwc-alarm-locate-loading" />;
  } else {
    body = (
      <Suspense fallback={<Spin className="bwc-alarm-locate-loading" />}>
        <AlarmLocateMap
          styleUrl={setup.data.styleUrl}
          crs={setup.data.crs}
          position={position}
          title={title}
          label={t('locate.marker')}
          onStyleError={setStyleError}
        />
      </Suspense>
    );
  }

  return (
    <Modal
      open={open}
      title={t('locate.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={ALARM_MAP_SIZE.width + 48}
      centered
    >
      <div
        className="bwc-alarm-locate"
        style={{ width: ALARM_MAP_SIZE.width, height: ALARM_MAP_SIZE.height }}
        data-testid="alarm-locate"
      >
        {body}
      </div>
    </Modal>
  );
}
