import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isLoggedIn } from '../../api/session';

function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = isLoggedIn();
  return (
    <Button type="primary" onClick={() => navigate(loggedIn ? '/menu' : '/login', { replace: true })}>
      {loggedIn ? t('action.backHome') : t('action.toLogin')}
    </Button>
  );
}

const fullPage = { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' } as const;

export function NotFoundPage() {
  const { t } = useTranslation('pages');
  return (
    <div style={fullPage}>
      <Result status="404" title={t('notFound.title')} subTitle={t('notFound.subTitle')} extra={<BackButton />} />
    </div>
  );
}

/** 500: a page of its own at /500, or inside the shell when a page fails to render (`inline`). */
export function ServerErrorPage({ message, inline = false }: { message?: string; inline?: boolean }) {
  const { t } = useTranslation('pages');
  return (
    <div style={inline ? undefined : fullPage}>
      <Result
        status="500"
        title={t('serverError.title')}
        subTitle={t('serverError.subTitle')}
        extra={
          <>
            <BackButton />
            {message ? (
              <p style={{ marginTop: 16, color: 'rgba(0, 0, 0, 0.45)' }}>{t('serverError.detail', { message })}</p>
            ) : null}
          </>
        }
      />
    </div>
  );
}

export function NotAcceptablePage() {
  const { t } = useTranslation('pages');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  return (
    <div style={fullPage}>
      <Result
        status="warning"
        title={t('notAcceptable.title')}
        subTitle={t('notAcceptable.subTitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/login', { replace: true })}>
            {tc('action.toLogin')}
          </Button>
        }
      />
    </div>
  );
}
