import { MODULE_BY_ID } from '@bwc/protocol';
import { Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { menuLabelKey } from '../routing/menuLabel';

interface NotBuiltPageProps {
  /** catalogue menu id of the capability */
  menuId?: number;
  /** the label's catalogue key (`menu:<page>`), for pages that are not catalogue modules */
  nameKey?: string;
}

/** Placeholder of a capability a later issue builds: names it plainly instead of an empty screen. */
export function NotBuiltPage({ menuId, nameKey }: NotBuiltPageProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const module = menuId === undefined ? undefined : MODULE_BY_ID.get(menuId);
  const area = module ? MODULE_BY_ID.get(rootOf(module.id)) : undefined;
  const name = t(module ? menuLabelKey(module.key) : (nameKey ?? menuLabelKey('home')));
  return (
    <Result
      status="info"
      title={t('notBuilt.title', { name })}
      subTitle={
        module
          ? t('notBuilt.description', { name, area: t(menuLabelKey(area?.key ?? module.key)), id: module.id })
          : t('notBuilt.pageDescription', { name })
      }
      extra={<Typography.Text type="secondary">{t('notBuilt.path', { path: pathname })}</Typography.Text>}
      data-testid="not-built"
    />
  );
}

function rootOf(id: number): number {
  let current = MODULE_BY_ID.get(id);
  while (current && current.pid !== 0) current = MODULE_BY_ID.get(current.pid);
  return current?.id ?? id;
}
