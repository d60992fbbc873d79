import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { acceptUnsupportedBrowser } from '../routing/browserSupport';

export function NotSupportPage() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status="warning"
        title={t('notSupport.title')}
        subTitle={t('notSupport.subTitle')}
        extra={
          <Button
            onClick={() => {
              acceptUnsupportedBrowser();
              navigate('/login', { replace: true });
            }}
          >
            {t('notSupport.continue')}
          </Button>
        }
      />
    </div>
  );
}
