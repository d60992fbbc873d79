import { LockOutlined, ReloadOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { LoginPassword, ResultCode, Routes } from '@bwc/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, ConfigProvider, Form, Input, Spin, theme, Tooltip } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, call, resetUnauthenticatedGuard } from '../../api/http';
import { markLoggedIn } from '../../api/session';
import { zodFieldRules } from '../../app/forms/zodRules';
import { LanguageSwitch } from '../../app/shell/LanguageSwitch';
import { keysOf } from '../../i18n/keys';
import { usePageInfo } from '../../app/session/queries';
import { buildLoginRequest, type LoginFormValues } from './loginRequest';
import { lazyPage } from '../../app/routing/lazyPage';
import './login.css';
import { systemTitle } from '../../app/session/systemTitle';

// shown once, before the licence is registered: its own chunk (the first-load budget, bench/bundle-size.ts)
const RegistrationStep = lazyPage(() => import('./RegistrationStep'), 'RegistrationStep');

export const loginKeys = { captcha: ['login', 'captcha'] as const };

/** Refusals that get a heading above the server's msg: a locked account, a throttled address. */
const FAILURE_HEADINGS: Partial<Record<number, string>> = keysOf('login', {
  [ResultCode.LOCKED]: 'error.locked',
  [ResultCode.THROTTLED]: 'error.throttled',
});

/** Login screen (spec part 1 section 2): username, password, verification code, registration step. */
export function LoginPage() {
  const { t } = useTranslation('login');
  const { t: tv } = useTranslation('validation');
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<LoginFormValues>();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const { data: pageInfo } = usePageInfo();
  const captcha = useQuery({
    queryKey: loginKeys.captcha,
    queryFn: ({ signal }) => call('loginGet', undefined, { signal }),
    staleTime: 0,
    gcTime: 0,
  });

  const refreshCaptcha = () => {
    form.setFieldValue('captcha_code', '');
    void captcha.refetch();
  };

  const login = useMutation({
    mutationFn: (values: LoginFormValues) =>
      call('login', buildLoginRequest(values, captcha.data?.token ?? ''), { silent: true }),
    onSuccess: (result) => {
      markLoggedIn({ username: result.username, ifadmin: result.ifadmin });
      resetUnauthenticatedGuard();
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'pageInfo' });
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== '/login' ? from : '/menu', { replace: true });
    },
    onError: (error) => {
      setFailure(error instanceof ApiError ? error : null);
      // a captcha is good for one attempt; an unregistered answer brings the registration step
      refreshCaptcha();
    },
  });

  const background = pageInfo?.background_path
    ? `url("${Routes.background.path}?v=${encodeURIComponent(pageInfo.background_path)}")`
    : undefined;
  // the captcha answer says whether the installation is registered; it is fetched again after
  // every failed login, so a 460 for an unregistered installation brings the registration step,
  // while a 460 for a licence limit (workstations) stays an error on the form
  const registered = captcha.data?.registered !== false;

  return (
    <div className="login-page" style={background ? { backgroundImage: background } : undefined}>
      <div className="login-lang">
        <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
          <LanguageSwitch />
        </ConfigProvider>
      </div>
      <div className="login-center">
        <h2 className="login-title" data-testid="login-title">
          {systemTitle(pageInfo?.title, t('form.title'))}
        </h2>
        {/* a plain box: antd's Card brings its tabs into the first load (the first-load budget, bench/bundle-size.ts) */}
        <div className="login-card">
          {captcha.isPending ? (
            <div style={{ textAlign: 'center', padding: 32 }}>
              <Spin />
            </div>
          ) : !registered ? (
            <Suspense fallback={<Spin />}>
              <RegistrationStep
                onRegistered={() => {
                  setFailure(null);
                  void captcha.refetch();
                }}
              />
            </Suspense>
          ) : (
            <Form<LoginFormValues>
              form={form}
              layout="vertical"
              size="large"
              requiredMark={false}
              onFinish={(values) => login.mutate(values)}
              onValuesChange={() => setFailure(null)}
            >
              {failure ? (
                <Alert
                  type="error"
                  showIcon
                  style={{ marginBottom: 16 }}
                  message={FAILURE_HEADINGS[failure.code] ? t(FAILURE_HEADINGS[failure.code]!) : failure.msg}
                  description={FAILURE_HEADINGS[failure.code] ? failure.msg : undefined}
                  data-testid="login-error"
                />
              ) : null}
              <Form.Item
                name="username"
                label={t('form.username')}
                rules={[{ required: true, whitespace: true, message: tv('username.required') }]}
              >
                <Input prefix={<UserOutlined />} autoComplete="username" maxLength={64} />
              </Form.Item>
              <Form.Item name="password" label={t('form.password')} rules={zodFieldRules(LoginPassword)}>
                <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={64} />
              </Form.Item>
              <Form.Item label={t('form.captcha')} required>
                <div className="login-captcha-row">
                  <Form.Item
                    name="captcha_code"
                    noStyle
                    rules={[{ required: true, whitespace: true, message: tv('captcha.required') }]}
                  >
                    <Input prefix={<SafetyOutlined />} autoComplete="off" maxLength={16} />
                  </Form.Item>
                  <Tooltip title={t('form.captchaRefresh')}>
                    <button
                      type="button"
                      className="login-captcha"
                      onClick={refreshCaptcha}
                      aria-label={t('form.captchaRefresh')}
                      data-testid="captcha-image"
                    >
                      {captcha.data?.captcha ? (
                        <img src={captcha.data.captcha} alt={t('form.captcha')} />
                      ) : (
                        <ReloadOutlined />
                      )}
                    </button>
                  </Tooltip>
                </div>
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={login.isPending} disabled={!captcha.data}>
                {t('form.submit')}
              </Button>
            </Form>
          )}
        </div>
      </div>
      <footer className="login-footer">
        {pageInfo?.support_text ? <span>{t('footer.support', { text: pageInfo.support_text })}</span> : null}
        {pageInfo?.version ? (
          <span data-testid="login-version">{t('footer.version', { version: pageInfo.version })}</span>
        ) : null}
      </footer>
    </div>
  );
}
