import { MODULE_BY_ID } from '@bwc/protocol';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { menuLabelKey } from '../routing/menuLabel';

export function NoPermissionPage({ menuId }: { menuId: number }) {
  const { t } = useTranslation();
  const key = MODULE_BY_ID.get(menuId)?.key ?? 'home';
  return (
    <Result
      status="403"
      title={t('noPermission.title')}
      subTitle={t('noPermission.description', { name: t(menuLabelKey(key)) })}
    />
  );
}
