import { SettingsSchemas, type Settings, type SettingsType } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { keysOf } from '../../../i18n/keys';
import { SettingsCard, type SettingsRules } from './SettingsCard';
import { settingsMenu, useSaveSettings, useSettings } from './useSettings';

const SETTINGS_TEXTS = {
  titleset: keysOf('system', { title: 'titleset.title', description: 'titleset.description' }),
  backset: keysOf('system', { title: 'backset.title', description: 'backset.description' }),
  filestorage: keysOf('system', { title: 'filestorage.title', description: 'filestorage.description' }),
  statisticset: keysOf('system', { title: 'statisticset.title', description: 'statisticset.description' }),
  normalset: keysOf('system', { title: 'normalset.title', description: 'normalset.description' }),
  digitailmap: keysOf('system', { title: 'digitailmap.title', description: 'digitailmap.description' }),
  cloudstorage: keysOf('system', { title: 'cloudstorage.title', description: 'cloudstorage.description' }),
  gbconfig: keysOf('system', { title: 'gbconfig.title', description: 'gbconfig.description' }),
} satisfies Partial<Record<SettingsType, { title: string; description: string }>>;
/** the settings types that have a page of their own */
type PageType = SettingsType & keyof typeof SETTINGS_TEXTS;

interface SettingsTypePageProps<T extends PageType> {
  type: T;
  children: (rules: SettingsRules) => ReactNode;
  extra?: ReactNode;
}

/** The settings card of one `system_get?type=` type: title and description from `system:<type>`. */
export function SettingsTypePage<T extends PageType>({ type, children, extra }: SettingsTypePageProps<T>) {
  const { t } = useTranslation('system');
  const query = useSettings(type);
  const save = useSaveSettings(type);
  return (
    <SettingsCard<Settings<T>>
      title={t(SETTINGS_TEXTS[type].title)}
      description={t(SETTINGS_TEXTS[type].description)}
      schema={SettingsSchemas[type] as unknown as z.ZodType<Settings<T>>}
      menuId={settingsMenu(type)}
      query={query}
      save={save}
      extra={extra}
    >
      {children}
    </SettingsCard>
  );
}
