import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@bwc/protocol';
import { ConfigProvider } from 'antd';
import { useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ANTD_LOCALES } from '../i18n';

const theme = { token: { colorPrimary: '#1f5fbf', borderRadius: 4 } };

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * Whether the user asked the system or the browser to reduce motion; it may change while the
 * console is open.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}

function useLanguage(): Language {
  const { i18n } = useTranslation();
  return (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : DEFAULT_LANGUAGE;
}

/**
 * antd's language and theme for the whole console. Its opening, closing and sliding animations are
 * left out when the user asked for less motion (the nested dark providers inherit the token), as
 * the console's own animations are (bell.css).
 */
export function ConsoleConfig({ children }: { children: ReactNode }) {
  const language = useLanguage();
  const reduced = usePrefersReducedMotion();
  const appTheme = useMemo(() => ({ token: { ...theme.token, motion: !reduced } }), [reduced]);
  return (
    <ConfigProvider locale={ANTD_LOCALES[language]} theme={appTheme}>
      {children}
    </ConfigProvider>
  );
}
