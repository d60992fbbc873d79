import {
  DISPATCH_CONFIG_TYPES,
  MenuId,
  SettingsSchemas,
  type PlayConfig,
  type Settings,
  type SettingsType,
} from '@bwc/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { sessionKeys } from '../../../app/session/queries';
import { i18next } from '../../../i18n';

export const settingsKeys = {
  all: ['system', 'settings'] as const,
  type: (type: SettingsType) => ['system', 'settings', type] as const,
  play: ['system', 'play'] as const,
  gbStatus: ['system', 'gb', 'status'] as const,
};

/** Settings under /system/player need replay_auth (menu 10003), the others systerm_auth (10002). */
export function settingsMenu(type: SettingsType): number {
  return DISPATCH_CONFIG_TYPES.includes(type) ? MenuId.DISPATCH_CONFIG : MenuId.SYSTEM_SETTINGS;
}

export function useSettings<T extends SettingsType>(type: T) {
  return useQuery({
    queryKey: settingsKeys.type(type),
    queryFn: ({ signal }) => call('settingsGet', { type }, { signal }) as Promise<Settings<T>>,
  });
}

/** Validates with the protocol schema of the type (defaults and coercion applied) and saves. */
export function useSaveSettings<T extends SettingsType>(type: T) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (values: Settings<T>) => {
      const parsed = SettingsSchemas[type].parse(values) as Settings<T>;
      await call('settingsUpdate', { type, ...parsed }, { success: i18next.t('success:saved') });
      return parsed;
    },
    onSuccess: (saved) => {
      client.setQueryData(settingsKeys.type(type), saved);
      void client.invalidateQueries({ queryKey: settingsKeys.type(type) });
      // page info carries the title, support text and background the shell and login show
      void client.invalidateQueries({ queryKey: sessionKeys.pageInfo });
      // the GB mode flag reaches the console through the user context (gb)
      // and the server restarts GB28181 access from the saved gbconfig before it answers
      if (type === 'gbconfig') {
        void client.invalidateQueries({ queryKey: sessionKeys.userContext });
        void client.invalidateQueries({ queryKey: settingsKeys.gbStatus });
      }
    },
  });
}

export function usePlayConfig() {
  return useQuery({
    queryKey: settingsKeys.play,
    queryFn: ({ signal }) => call('playGet', undefined, { signal }),
  });
}

export function useSavePlayConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (values: PlayConfig) => {
      await call('playUpdate', { ...values }, { success: i18next.t('success:saved') });
      return values;
    },
    onSuccess: (saved) => client.setQueryData(settingsKeys.play, saved),
  });
}
