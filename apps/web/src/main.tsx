import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { notify } from './api/notify';
import { AppRoot } from './app/App';
import './app/global.css';
import { isUnsupportedBrowser } from './app/routing/browserSupport';
import { i18next, loadInitialLanguage } from './i18n';

if (isUnsupportedBrowser() && window.location.pathname !== '/not-support')
  window.history.replaceState(null, '', '/not-support');

// a stylesheet chunk that fails to preload (script chunks are handled by lazyPage)
window.addEventListener('vite:preloadError', (event) => {
  const payload = (event as Event & { payload?: unknown }).payload;
  if (payload instanceof Error && /css/i.test(payload.message)) notify.error(i18next.t('common:chunk.cssFailed'));
});

// the first render waits for the catalogues of the user's language (a failed load still renders:
// the chunk error pages need no catalogue to offer a reload)
void loadInitialLanguage()
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <AppRoot />
      </StrictMode>,
    ),
  );
