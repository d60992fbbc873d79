import { SettingsSchemas, type Settings, type SettingsType } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SettingsCard, type SettingsRules } from './SettingsCard';
import { settingsMenu, useSaveSettings, useSettings } from './useSettings';

interface SettingsTypePageProps<T extends SettingsType> {
  type: T;
  children: (rules: SettingsRules) => ReactNode;
  extra?: ReactNode;
}

/** The settings card of one `system_get?type=` type: title and description from `system:<type>`. */
export function SettingsTypePage<T extends SettingsType>({ type, children, extra }: SettingsTypePageProps<T>) {
  const { t } = useTranslation('system');
  const query = useSettings(type);
  const save = useSaveSettings(type);
  return (
    <SettingsCard<Settings<T>>
      title={t(`${type}.title`)}
      description={t(`${type}.description`)}
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
