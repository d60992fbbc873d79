import { MenuId } from '@bwc/protocol';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePermission } from '../app/session/Permission';

/** System -> electronic map: where an offline map file is uploaded or an online source set. */
export const MAP_SETTINGS_PATH = '/system/player/digitailmap';

/**
 * Over a map drawn from the built-in basemap: it has places and boundaries but no streets. Those
 * who may change the map settings get a link to where a street-level source is set up.
 */
export function BasemapNotice() {
  const { t } = useTranslation('map');
  const mayConfigure = usePermission(MenuId.DISPATCH_CONFIG, 'edit');
  return (
    <Alert
      className="bwc-basemap-notice"
      data-testid="basemap-notice"
      type="info"
      showIcon
      closable
      message={t('basemap.notice')}
      description={
        mayConfigure ? (
          <Link to={MAP_SETTINGS_PATH} data-testid="basemap-notice-link">
            {t('basemap.configure')}
          </Link>
        ) : (
          t('basemap.askAdmin')
        )
      }
    />
  );
}
